import type { FileEntry } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { filesKeys } from './keys';
import { entriesAnswer } from './parse-entries';

/** GET /api/file/recent: files the user opened, uploaded or changed lately, newest first. */
export function getRecent(signal?: AbortSignal): Promise<FileEntry[]> {
  return apiFetch('/file/recent', { schema: entriesAnswer, signal });
}

export function useRecent() {
  return useQuery({ queryKey: filesKeys.recent, queryFn: ({ signal }) => getRecent(signal) });
}
