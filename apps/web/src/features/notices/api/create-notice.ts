import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { noticesQueryOptions } from './get-notices';

export interface NewNotice {
  title: string;
  content: string;
}

/** POST /api/notice {title, content}: roleLevel above 1; 400 `notice_title_required` / `notice_content_required`. */
export function createNotice(notice: NewNotice): Promise<unknown> {
  return apiFetch('/notice', { method: 'POST', body: notice });
}

export function useCreateNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: createNotice,
    onSuccess: () => client.invalidateQueries({ queryKey: noticesQueryOptions.queryKey }),
  });
}
