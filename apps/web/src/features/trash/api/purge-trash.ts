import { trashCountResponseSchema } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { trashKeys } from './keys';

/** DELETE /api/trash/{id}: deletes one trashed item for good (administrators). */
export function purgeTrashItem(id: string): Promise<{ count: number }> {
  return apiFetch(`/trash/${encodeURIComponent(id)}`, { method: 'DELETE', schema: trashCountResponseSchema });
}

/** DELETE /api/trash: empties the whole trash (administrators). */
export function emptyTrash(): Promise<{ count: number }> {
  return apiFetch('/trash', { method: 'DELETE', schema: trashCountResponseSchema });
}

/** Deletes one item (`id`) or, with null, everything in the trash. */
export function usePurgeTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) => (id === null ? emptyTrash() : purgeTrashItem(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: trashKeys.all }),
  });
}
