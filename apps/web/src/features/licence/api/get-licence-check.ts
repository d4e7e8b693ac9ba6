import { type LicenceCheck, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/system/license/check: whether this installation needs a licence key now. */
export function getLicenceCheck(signal?: AbortSignal): Promise<LicenceCheck> {
  return callApi(apiCalls.license_check, { signal });
}

export const licenceCheckQueryOptions = queryOptions({
  queryKey: ['system', 'license', 'check'],
  queryFn: ({ signal }) => getLicenceCheck(signal),
  staleTime: 30_000,
});

export function useLicenceCheck() {
  return useQuery(licenceCheckQueryOptions);
}
