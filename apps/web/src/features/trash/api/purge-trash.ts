import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { trashKeys } from './keys';

/** DELETE /api/trash/{id}: deletes one trashed item for good (administrators). */
export function purgeTrashItem(id: string): Promise<{ count: number }> {
  return callApi(apiCalls.trash_delete, { params: { id } });
}

/** DELETE /api/trash: empties the whole trash (administrators). */
export function emptyTrash(): Promise<{ count: number }> {
  return callApi(apiCalls.trash_empty);
}

/** Deletes one item (`id`) or, with null, everything in the trash. */
export function usePurgeTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (id: string | null) => (id === null ? emptyTrash() : purgeTrashItem(id)),
    onSettled: () => queryClient.invalidateQueries({ queryKey: trashKeys.all }),
  });
}
