import { factorsSchema, type Factors } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

/** GET /api/auth/factors: the second factor in use, whether an authenticator app is registered, fingerprint count. */
export function getFactors(signal?: AbortSignal): Promise<Factors> {
  return apiFetch('/auth/factors', { schema: factorsSchema, signal });
}

export const factorsQueryOptions = queryOptions({
  queryKey: ['auth', 'factors'],
  queryFn: ({ signal }) => getFactors(signal),
});

export function useFactors() {
  return useQuery(factorsQueryOptions);
}
