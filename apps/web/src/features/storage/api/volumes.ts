import { type SyncMode, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

const volumesKey = ['storage', 'volume'] as const;

/** GET /api/storage/volume: the volume table (refreshed while a sync runs). */
export const volumesQueryOptions = () =>
  queryOptions({
    queryKey: volumesKey,
    queryFn: ({ signal }) => callApi(apiCalls.storage_volume, { signal }),
    refetchInterval: (query) => (query.state.data?.items.some((row) => row.syncing) ? 2000 : false),
  });

export function useVolumes() {
  return useQuery(volumesQueryOptions());
}

/** PUT /api/file/root/volume: a root folder's limit in bytes, or null for none. */
export function useSetVolume() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { path: string; volume: number | null }) => callApi(apiCalls.root_volume, { body: change }),
    onSuccess: () => client.invalidateQueries({ queryKey: volumesKey }),
  });
}

/** POST /api/storage/sync: moves or copies a root folder to the other backend (a task in the sync tab). */
export function useStartSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { path: string; mode: SyncMode; name?: string }) => callApi(apiCalls.storage_sync, { body }),
    onSuccess: () => client.invalidateQueries({ queryKey: volumesKey }),
  });
}
