import { type Backend, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { refreshFiles } from './keys';

export interface CreateFolderInput {
  /** Parent folder; '/' makes a root folder (administrators only). */
  path: string;
  name: string;
  backend?: Backend;
}

/** POST /api/file: creates a folder. */
export function createFolder(input: CreateFolderInput): Promise<unknown> {
  return callApi(apiCalls.folder_create, { body: input });
}

export function useCreateFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: createFolder,
    onSuccess: () => refreshFiles(queryClient),
  });
}
