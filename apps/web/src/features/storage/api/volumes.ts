import { rootFolderSchema, syncSchema, volumeListSchema, type SyncMode } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const volumesKey = ['storage', 'volume'] as const;

/** GET /api/storage/volume: the volume table (refreshed while a sync runs). */
export const volumesQueryOptions = () =>
  queryOptions({
    queryKey: volumesKey,
    queryFn: ({ signal }) => apiFetch('/storage/volume', { schema: volumeListSchema, signal }),
    refetchInterval: (query) => (query.state.data?.items.some((row) => row.syncing) ? 2000 : false),
  });

export function useVolumes() {
  return useQuery(volumesQueryOptions());
}

/** PUT /api/file/root/volume: a root folder's limit in bytes, or null for none. */
export function useSetVolume() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: { path: string; volume: number | null }) =>
      apiFetch('/file/root/volume', { method: 'PUT', body: change, schema: rootFolderSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: volumesKey }),
  });
}

/** POST /api/storage/sync: moves or copies a root folder to the other backend (a task in the sync tab). */
export function useStartSync() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (body: { path: string; mode: SyncMode; name?: string }) => apiFetch('/storage/sync', { method: 'POST', body, schema: syncSchema }),
    onSuccess: () => client.invalidateQueries({ queryKey: volumesKey }),
  });
}
