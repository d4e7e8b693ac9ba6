import { type SystemInfo, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** GET /api/system: host, platform, uptime, memory and CPU of the server. */
export function getSystemInfo(signal?: AbortSignal): Promise<SystemInfo> {
  return callApi(apiCalls.system_info, { signal });
}

export const systemInfoQueryOptions = () => queryOptions({ queryKey: ['system', 'info'], queryFn: ({ signal }) => getSystemInfo(signal) });

export function useSystemInfo() {
  return useQuery(systemInfoQueryOptions());
}
