import { type RootUsage, apiCalls } from '@bogwan/contracts';
import { type QueryClient, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { refetchAfterChange } from '../../../api/refetch';
import { filesKeys } from './keys';

/** GET /api/file/root/usage: bytes used and the limit of each root folder the user may read. */
export function getRootUsage(signal?: AbortSignal): Promise<RootUsage> {
  return callApi(apiCalls.root_usage, { signal });
}

/**
 * Kept current by the realtime `usage` event (see `refreshUsage`); a tab that was hidden
 * when an event came reads its figures when it is focused again.
 */
export function useRootUsage() {
  return useQuery({ queryKey: filesKeys.usage, queryFn: ({ signal }) => getRootUsage(signal), staleTime: 30_000, refetchOnWindowFocus: true });
}

/** Whether this tab is hidden (in the background or minimised). */
export function tabHidden(): boolean {
  return typeof document !== 'undefined' && document.visibilityState === 'hidden';
}

/**
 * After a realtime `usage` event: the figures are read again at once in a tab someone sees;
 * a hidden tab only marks them stale and reads them when it is focused, so busy uploads do
 * not make every open background tab ask the server every few seconds.
 */
export function refreshUsage(client: QueryClient): Promise<void> {
  if (tabHidden()) return client.invalidateQueries({ queryKey: filesKeys.usage, refetchType: 'none' });
  return refetchAfterChange(client, filesKeys.usage);
}
