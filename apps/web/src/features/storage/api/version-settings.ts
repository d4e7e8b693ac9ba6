import { versionSettingsSchema, type VersionSettings } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const versionSettingsKey = ['storage', 'versions'] as const;

/** GET /api/setting/versions (administrators): how many versions of a file are kept, and for how many days. */
export const versionSettingsQueryOptions = () =>
  queryOptions({ queryKey: versionSettingsKey, queryFn: ({ signal }) => apiFetch('/setting/versions', { schema: versionSettingsSchema, signal }) });

export function useVersionSettings() {
  return useQuery(versionSettingsQueryOptions());
}

/** PUT /api/setting/versions: null turns a rule off. */
export function useSaveVersionSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: VersionSettings) => apiFetch('/setting/versions', { method: 'PUT', body: settings, schema: versionSettingsSchema }),
    onSuccess: (saved) => client.setQueryData(versionSettingsKey, saved),
  });
}
