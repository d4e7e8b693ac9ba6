import { type SetupStatus, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/auth/setup: whether the first account still has to be created. */
export function getSetupStatus(signal?: AbortSignal): Promise<SetupStatus> {
  return callApi(apiCalls.setup_status, { signal });
}

export const setupStatusQueryOptions = queryOptions({
  queryKey: ['auth', 'setup'],
  queryFn: ({ signal }) => getSetupStatus(signal),
  staleTime: 0,
});

export function useSetupStatus() {
  return useQuery(setupStatusQueryOptions);
}
