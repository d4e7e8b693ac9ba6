import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { noticesQueryOptions } from './get-notices';

/** DELETE /api/notice/{id}: roleLevel above 1. */
export function deleteNotice(id: string): Promise<void> {
  return apiFetch(`/notice/${encodeURIComponent(id)}`, { method: 'DELETE' });
}

export function useDeleteNotice() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteNotice,
    onSuccess: () => client.invalidateQueries({ queryKey: noticesQueryOptions.queryKey }),
  });
}
