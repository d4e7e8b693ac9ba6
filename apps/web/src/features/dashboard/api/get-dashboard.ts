import { type Dashboard, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

/** The browser's time zone, so the transfer chart's days are the viewer's days. */
function viewerTimeZone(): string | undefined {
  try {
    return Intl.DateTimeFormat().resolvedOptions().timeZone;
  } catch {
    return undefined;
  }
}

/** GET /api/dashboard?tz=: storage, accounts, transfers, tasks, last snapshot and licence in one answer. */
export function getDashboard(signal?: AbortSignal): Promise<Dashboard> {
  return callApi(apiCalls.dashboard, { query: { tz: viewerTimeZone() }, signal });
}

/** Refreshed every 30 s while the dashboard is open. */
export const dashboardQueryOptions = () => queryOptions({ queryKey: ['dashboard'], queryFn: ({ signal }) => getDashboard(signal), refetchInterval: 30_000 });

export function useDashboard() {
  return useQuery(dashboardQueryOptions());
}
