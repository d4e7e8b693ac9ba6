import { storageSettingsSchema, type StorageSettings } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const storageSettingsKey = ['setting', 'storage'] as const;

/** GET /api/setting/storage: the server directory and the cloud bucket. */
export const storageSettingsQueryOptions = () =>
  queryOptions({
    queryKey: storageSettingsKey,
    queryFn: ({ signal }) => apiFetch('/setting/storage', { schema: storageSettingsSchema, signal }),
  });

export function useStorageSettings() {
  return useQuery(storageSettingsQueryOptions());
}

export type StorageSettingsChange = { server?: { path: string }; cloud?: { bucket: string } };

/** PUT /api/setting/storage: saves one of the two (a bucket must exist). */
export function useUpdateStorageSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: StorageSettingsChange) => apiFetch('/setting/storage', { method: 'PUT', body: change, schema: storageSettingsSchema }),
    onSuccess: (saved: StorageSettings) => {
      client.setQueryData(storageSettingsKey, saved);
      void client.invalidateQueries({ queryKey: ['storage'] });
    },
  });
}
