import { type ApprovalRequest, type RequestBox, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { requestsKeys } from './keys';

/** GET /api/request?box=: the caller's requests, or those the caller may decide or decided. */
export function getRequests(box: RequestBox, signal?: AbortSignal): Promise<ApprovalRequest[]> {
  return callApi(apiCalls.request_list, { query: { box }, signal });
}

export const requestsQueryOptions = (box: RequestBox) => queryOptions({ queryKey: requestsKeys.box(box), queryFn: ({ signal }) => getRequests(box, signal) });

export function useRequests(box: RequestBox) {
  return useQuery(requestsQueryOptions(box));
}
