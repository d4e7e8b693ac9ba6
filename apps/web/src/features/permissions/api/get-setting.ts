import { type Setting, type UpdateSettingRequest, apiCalls } from '@bogwan/contracts';
import { useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { permissionsKeys } from './keys';

/** GET /api/setting: the first item of the list holds the default permissions. */
export async function getSetting(signal?: AbortSignal): Promise<Setting> {
  const [first] = await callApi(apiCalls.setting, { signal });
  if (!first) throw new Error('no setting');
  return first;
}

export function useSetting() {
  return useQuery({ queryKey: permissionsKeys.setting, queryFn: ({ signal }) => getSetting(signal) });
}

/** PUT /api/setting: the default permission rows that changed. */
export function updateSetting(body: UpdateSettingRequest): Promise<unknown> {
  return callApi(apiCalls.setting_update, { body });
}

export function useUpdateSetting() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: updateSetting,
    onSuccess: () => queryClient.invalidateQueries({ queryKey: permissionsKeys.all }),
  });
}
