import { rootUsageSchema, type RootUsage } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { filesKeys } from './keys';

/** GET /api/file/root/usage: bytes used and the limit of each root folder the user may read. */
export function getRootUsage(signal?: AbortSignal): Promise<RootUsage> {
  return apiFetch('/file/root/usage', { schema: rootUsageSchema, signal });
}

/** Kept current by the realtime `usage` event (a change in any root refetches it). */
export function useRootUsage() {
  return useQuery({ queryKey: filesKeys.usage, queryFn: ({ signal }) => getRootUsage(signal), staleTime: 30_000 });
}
