import { ACTIVITY_FETCH_LIMIT, activityListSchema, type Activity } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

export interface ActivityPageQuery {
  /** Whose events; omitted: one's own (an administrator: everyone's). */
  userId?: string;
  skip: number;
  limit?: number;
}

/** GET /api/event?userId&skip&limit: a page of the activity log, newest first, with the total. */
export function getEvents(query: ActivityPageQuery, signal?: AbortSignal): Promise<{ items: Activity[]; total: number }> {
  return apiFetch('/event', {
    query: { userId: query.userId || undefined, skip: query.skip, limit: query.limit ?? ACTIVITY_FETCH_LIMIT },
    schema: activityListSchema,
    signal,
  });
}

export const eventsQueryOptions = (query: ActivityPageQuery) =>
  queryOptions({
    queryKey: ['event', query.userId ?? '', query.skip, query.limit ?? ACTIVITY_FETCH_LIMIT],
    queryFn: ({ signal }) => getEvents(query, signal),
    placeholderData: keepPreviousData,
  });

export function useEvents(query: ActivityPageQuery) {
  return useQuery(eventsQueryOptions(query));
}
