import { type AccessLogFilter, type AccessLogPage, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

export interface AccessLogPageQuery {
  filter: AccessLogFilter;
  skip: number;
  limit: number;
}

/** GET /api/system/log?skip&limit&ip&method&url&status&from&to: a page of the access log, newest first. */
export function getAccessLog({ filter, skip, limit }: AccessLogPageQuery, signal?: AbortSignal): Promise<AccessLogPage> {
  return callApi(apiCalls.system_log, { query: { ...filter, skip, limit }, signal });
}

export const accessLogQueryOptions = (query: AccessLogPageQuery) =>
  queryOptions({
    queryKey: ['system', 'log', query],
    queryFn: ({ signal }) => getAccessLog(query, signal),
    placeholderData: keepPreviousData,
  });

export function useAccessLog(query: AccessLogPageQuery) {
  return useQuery(accessLogQueryOptions(query));
}
