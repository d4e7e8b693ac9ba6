import { type Factors, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/auth/factors: the second factor in use, whether an authenticator app is registered, fingerprint count. */
export function getFactors(signal?: AbortSignal): Promise<Factors> {
  return callApi(apiCalls.factors, { signal });
}

export const factorsQueryOptions = queryOptions({
  queryKey: ['auth', 'factors'],
  queryFn: ({ signal }) => getFactors(signal),
});

export function useFactors() {
  return useQuery(factorsQueryOptions);
}
