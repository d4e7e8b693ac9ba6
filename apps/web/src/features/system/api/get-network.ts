import { type NetworkInterface, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/system/network: every interface of the server with its addresses. */
export function getNetwork(signal?: AbortSignal): Promise<NetworkInterface[]> {
  return callApi(apiCalls.system_network, { signal });
}

export const networkQueryOptions = () => queryOptions({ queryKey: ['system', 'network'], queryFn: ({ signal }) => getNetwork(signal) });

export function useNetwork() {
  return useQuery(networkQueryOptions());
}
