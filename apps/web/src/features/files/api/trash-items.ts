import { apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { refreshFiles } from './keys';

/** POST /api/file/trash `{paths}`: moves items to the trash. */
export function trashItems(paths: string[]): Promise<unknown> {
  return callApi(apiCalls.file_trash, { body: { paths } });
}

export function useTrashItems() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: trashItems,
    onSettled: () => refreshFiles(queryClient),
  });
}
