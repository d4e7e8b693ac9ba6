import { policyListSchema, type Policy } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** GET /api/policy: every route with the role level the server requires for it. */
export function getPolicies(signal?: AbortSignal): Promise<Policy[]> {
  return apiFetch('/policy', { schema: policyListSchema, signal });
}

export const policiesQueryOptions = () => queryOptions({ queryKey: ['system', 'policy'], queryFn: ({ signal }) => getPolicies(signal) });

export function usePolicies() {
  return useQuery(policiesQueryOptions());
}
