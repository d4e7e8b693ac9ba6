import { type FileEntry, apiCalls } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { filesKeys } from './keys';

/** GET /api/file/starred: the user's starred files and folders. */
export async function getStarred(signal?: AbortSignal): Promise<FileEntry[]> {
  return (await callApi(apiCalls.file_starred, { signal })).items;
}

export function useStarred() {
  return useQuery({ queryKey: filesKeys.starred, queryFn: ({ signal }) => getStarred(signal) });
}
