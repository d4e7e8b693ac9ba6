import { apiCalls, type RootVersionsRequest, type VersionSettings } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

const versionSettingsKey = ['storage', 'versions'] as const;

/** GET /api/setting/versions (administrators): how many versions of a file are kept, and for how many days. */
export const versionSettingsQueryOptions = () =>
  queryOptions({ queryKey: versionSettingsKey, queryFn: ({ signal }) => callApi(apiCalls.version_setting, { signal }) });

export function useVersionSettings() {
  return useQuery(versionSettingsQueryOptions());
}

/** PUT /api/setting/versions: null turns a rule off. */
export function useSaveVersionSettings() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (settings: VersionSettings) => callApi(apiCalls.version_setting_update, { body: settings }),
    onSuccess: (saved) => client.setQueryData(versionSettingsKey, saved),
  });
}

const rootVersionsKey = (path: string) => ['storage', 'versions', 'root', path] as const;

/** GET /api/file/root/versions: a root folder's own values (null follows the global policy) and what applies there. */
export function useRootVersions(path: string) {
  return useQuery({ queryKey: rootVersionsKey(path), queryFn: ({ signal }) => callApi(apiCalls.root_versions, { query: { path }, signal }) });
}

/** PUT /api/file/root/versions: null makes a rule follow the global policy again. */
export function useSaveRootVersions() {
  const client = useQueryClient();
  return useMutation({
    mutationFn: (request: RootVersionsRequest) => callApi(apiCalls.root_versions_update, { body: request }),
    onSuccess: (saved) => client.setQueryData(rootVersionsKey(saved.path), saved),
  });
}
