import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { noticesQueryOptions } from './get-notices';

export interface NewNotice {
  title: string;
  content: string;
}

/** POST /api/notice {title, content}: roleLevel above 1; 400 `notice_title_required` / `notice_content_required`. */
export function createNotice(notice: NewNotice): Promise<unknown> {
  return callApi(apiCalls.notice_create, { body: notice });
}

export function useCreateNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createNotice,
    onSuccess: () => client.invalidateQueries({ queryKey: noticesQueryOptions.queryKey }),
  });
}
