import { type AuditPerson, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/event/people?q=: accounts whose name or e-mail contains q (others than administrators: only themselves). */
export async function getPeople(q: string, signal?: AbortSignal): Promise<AuditPerson[]> {
  return (await callApi(apiCalls.event_people, { query: { q }, signal })).items;
}

export const peopleQueryOptions = (q: string) =>
  queryOptions({
    queryKey: ['event', 'people', q],
    queryFn: ({ signal }) => getPeople(q, signal),
    placeholderData: keepPreviousData,
    staleTime: 30_000,
  });

/** Suggestions for the person filter; `q` is already debounced by the caller. */
export function usePeople(q: string, enabled: boolean) {
  return useQuery({ ...peopleQueryOptions(q), enabled });
}
