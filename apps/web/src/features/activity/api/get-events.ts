import { type AuditList, apiCalls } from '@bogwan/contracts';
import { infiniteQueryOptions, keepPreviousData, useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import type { AuditFilterQuery } from '../lib/audit-filter';

/** Rows per page of the activity screens. */
export const AUDIT_PAGE_SIZE = 50;

/**
 * GET /api/event?<filters>&before&limit: one page of the audit trail, newest first. Pages
 * follow the keyset cursor (`before` = the previous page's `next`), so a page deep in
 * millions of rows costs what the first one does. The server shows an account its own
 * records whatever the filter says; administrators see everyone's.
 */
export function getEvents(filter: AuditFilterQuery, before: string | null, limit: number, signal?: AbortSignal): Promise<AuditList> {
  return callApi(apiCalls.event_list, { query: { ...filter, before: before ?? undefined, limit }, signal });
}

export const eventsQueryOptions = (filter: AuditFilterQuery, limit = AUDIT_PAGE_SIZE) =>
  infiniteQueryOptions({
    queryKey: ['event', 'list', filter, limit],
    queryFn: ({ pageParam, signal }) => getEvents(filter, pageParam, limit, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
    placeholderData: keepPreviousData,
  });

/** The pages of the audit trail loaded so far for a filter; `fetchNextPage` loads the next older one. */
export function useEvents(filter: AuditFilterQuery, limit = AUDIT_PAGE_SIZE, enabled = true) {
  return useInfiniteQuery({ ...eventsQueryOptions(filter, limit), enabled });
}
