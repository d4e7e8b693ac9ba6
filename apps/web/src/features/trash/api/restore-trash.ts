import { trashCountResponseSchema } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { trashKeys } from './keys';

/** POST /api/trash/restore `{ids}`: puts items back where they were (all or none). */
export function restoreTrash(ids: string[]): Promise<{ count: number }> {
  return apiFetch('/trash/restore', { method: 'POST', body: { ids }, schema: trashCountResponseSchema });
}

export function useRestoreTrash() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: restoreTrash,
    // The folders the items return to change too.
    onSettled: () => queryClient.invalidateQueries(),
  });
}

