import { type AuditSettings, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

const auditSettingsKey = ['setting', 'audit'] as const;

/** GET /api/setting/audit: how many years audit records are kept (administrators). */
export function getAuditSettings(signal?: AbortSignal): Promise<AuditSettings> {
  return callApi(apiCalls.audit_setting, { signal });
}

/** PUT /api/setting/audit `{retentionYears}`. */
export function setAuditSettings(settings: AuditSettings): Promise<AuditSettings> {
  return callApi(apiCalls.audit_setting_update, { body: settings });
}

export const auditSettingsQueryOptions = () => queryOptions({ queryKey: auditSettingsKey, queryFn: ({ signal }) => getAuditSettings(signal) });

export function useAuditSettings() {
  return useQuery(auditSettingsQueryOptions());
}

export function useSetAuditSettings() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setAuditSettings,
    onSuccess: (saved) => queryClient.setQueryData(auditSettingsKey, saved),
  });
}
