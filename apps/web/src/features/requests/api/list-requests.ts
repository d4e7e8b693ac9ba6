import { approvalRequestListSchema, type ApprovalRequest, type RequestBox } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { requestsKeys } from './keys';

/** GET /api/request?box=: the caller's requests, or those the caller may decide or decided. */
export function getRequests(box: RequestBox, signal?: AbortSignal): Promise<ApprovalRequest[]> {
  return apiFetch('/request', { query: { box }, schema: approvalRequestListSchema, signal });
}

export const requestsQueryOptions = (box: RequestBox) => queryOptions({ queryKey: requestsKeys.box(box), queryFn: ({ signal }) => getRequests(box, signal) });

export function useRequests(box: RequestBox) {
  return useQuery(requestsQueryOptions(box));
}
