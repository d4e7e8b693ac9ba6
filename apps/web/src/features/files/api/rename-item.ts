import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { parentOf } from '../lib/storage-path';
import { refreshFiles } from './keys';

/** PUT /api/file/rename `{path: parent folder, name, newName}`. */
export function renameItem({ path, name, newName }: { path: string; name: string; newName: string }): Promise<unknown> {
  return callApi(apiCalls.file_rename, { body: { path: parentOf(path), name, newName } });
}

export function useRenameItem() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: renameItem,
    onSuccess: () => refreshFiles(queryClient),
  });
}
