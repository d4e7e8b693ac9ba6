import { type FileEntry, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { requestsKeys } from './keys';

/** PUT /api/file/lock: makes a folder secure, or ordinary again (LOCK / UNLOCK permission). */
export function lockFolder(path: string, lock: boolean): Promise<FileEntry> {
  return callApi(apiCalls.file_lock, { body: { path, lock } });
}

export function useLockFolder() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: (input: { path: string; lock: boolean }) => lockFolder(input.path, input.lock),
    onSuccess: () => queryClient.invalidateQueries({ queryKey: requestsKeys.all }),
  });
}
