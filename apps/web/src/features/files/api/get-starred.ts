import type { FileEntry } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { filesKeys } from './keys';
import { entriesAnswer } from './parse-entries';

/** GET /api/file/starred: the user's starred files and folders. */
export function getStarred(signal?: AbortSignal): Promise<FileEntry[]> {
  return apiFetch('/file/starred', { schema: entriesAnswer, signal });
}

export function useStarred() {
  return useQuery({ queryKey: filesKeys.starred, queryFn: ({ signal }) => getStarred(signal) });
}
