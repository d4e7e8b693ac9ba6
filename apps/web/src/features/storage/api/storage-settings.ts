import { type StorageSettings, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

const storageSettingsKey = ['setting', 'storage'] as const;

/** GET /api/setting/storage: the server directory and the cloud bucket. */
export const storageSettingsQueryOptions = () =>
  queryOptions({
    queryKey: storageSettingsKey,
    queryFn: ({ signal }) => callApi(apiCalls.storage_setting, { signal }),
  });

export function useStorageSettings() {
  return useQuery(storageSettingsQueryOptions());
}

export type StorageSettingsChange = { server?: { path: string }; cloud?: { bucket: string } };

/** PUT /api/setting/storage: saves one of the two (a bucket must exist). */
export function useUpdateStorageSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (change: StorageSettingsChange) => callApi(apiCalls.storage_setting_update, { body: change }),
    onSuccess: (saved: StorageSettings) => {
      client.setQueryData(storageSettingsKey, saved);
      void client.invalidateQueries({ queryKey: ['storage'] });
    },
  });
}
