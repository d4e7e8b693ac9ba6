import { type FileEntry, apiCalls } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { filesKeys } from './keys';

/** GET /api/file/recent: files the user opened, uploaded or changed lately, newest first. */
export async function getRecent(signal?: AbortSignal): Promise<FileEntry[]> {
  return (await callApi(apiCalls.file_recent, { signal })).items;
}

export function useRecent() {
  return useQuery({ queryKey: filesKeys.recent, queryFn: ({ signal }) => getRecent(signal) });
}
