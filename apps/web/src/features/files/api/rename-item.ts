import { useMutation, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { parentOf } from '../lib/storage-path';
import { refreshFiles } from './keys';

/** PUT /api/file/rename `{path: parent folder, name, newName}`. */
export function renameItem({ path, name, newName }: { path: string; name: string; newName: string }): Promise<unknown> {
  return apiFetch('/file/rename', { method: 'PUT', body: { path: parentOf(path), name, newName } });
}

export function useRenameItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameItem,
    onSuccess: () => refreshFiles(queryClient),
  });
}
