import { type Policy, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/policy: every route with the role level the server requires for it. */
export function getPolicies(signal?: AbortSignal): Promise<Policy[]> {
  return callApi(apiCalls.policy, { signal });
}

export const policiesQueryOptions = () => queryOptions({ queryKey: ['system', 'policy'], queryFn: ({ signal }) => getPolicies(signal) });

export function usePolicies() {
  return useQuery(policiesQueryOptions());
}
