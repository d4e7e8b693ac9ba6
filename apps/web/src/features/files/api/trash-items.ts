import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { refreshFiles } from './keys';

/** POST /api/file/trash `{paths}`: moves items to the trash. */
export function trashItems(paths: string[]): Promise<unknown> {
  return apiFetch('/file/trash', { method: 'POST', body: { paths } });
}

export function useTrashItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: trashItems,
    onSettled: () => refreshFiles(queryClient),
  });
}
