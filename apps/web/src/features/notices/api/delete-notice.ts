import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { noticesQueryOptions } from './get-notices';

/** DELETE /api/notice/{id}: roleLevel above 1. */
export function deleteNotice(id: string): Promise<void> {
  return callApi(apiCalls.notice_delete, { params: { id } });
}

export function useDeleteNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteNotice,
    onSuccess: () => client.invalidateQueries({ queryKey: noticesQueryOptions.queryKey }),
  });
}
