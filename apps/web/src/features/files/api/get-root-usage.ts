import { rootUsageSchema, type RootUsage } from '@bogwan/contracts';
import { useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { filesKeys } from './keys';

/** GET /api/file/root/usage: bytes used and the total the user may fill. */
export function getRootUsage(signal?: AbortSignal): Promise<RootUsage> {
  return apiFetch('/file/root/usage', { schema: rootUsageSchema, signal });
}

export function useRootUsage() {
  return useQuery({ queryKey: filesKeys.usage, queryFn: ({ signal }) => getRootUsage(signal), staleTime: 30_000 });
}
