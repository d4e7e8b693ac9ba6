import { LICENSE_POLL_MS, type Licence, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/system/license: the licence fields; 403 `license_required` while a key is needed. */
export function getLicence(signal?: AbortSignal): Promise<Licence> {
  return callApi(apiCalls.license, { signal });
}

export const licenceQueryOptions = queryOptions({
  queryKey: ['system', 'license'],
  queryFn: ({ signal }) => getLicence(signal),
  staleTime: 10_000,
});

/** The licence for the settings panel. */
export function useLicence(enabled = true) {
  return useQuery({ ...licenceQueryOptions, enabled });
}

/** Asks for the licence every LICENSE_POLL_MS while `enabled`; its 403 is what opens the dialog. */
export function useLicencePoll(enabled: boolean) {
  return useQuery({
    ...licenceQueryOptions,
    enabled,
    retry: false,
    staleTime: 0,
    refetchInterval: enabled ? LICENSE_POLL_MS : false,
    refetchIntervalInBackground: false,
  });
}
