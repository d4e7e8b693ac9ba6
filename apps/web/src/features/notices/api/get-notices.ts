import { type Notice, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/notice: every notice, newest first. */
export function getNotices(signal?: AbortSignal): Promise<Notice[]> {
  return callApi(apiCalls.notice_list, { signal });
}

export const noticesQueryOptions = queryOptions({
  queryKey: ['notice'],
  queryFn: ({ signal }) => getNotices(signal),
  staleTime: 60_000,
});

/** The notices, loaded while `enabled` (the drawer is open). */
export function useNotices(enabled: boolean) {
  return useQuery({ ...noticesQueryOptions, enabled });
}
