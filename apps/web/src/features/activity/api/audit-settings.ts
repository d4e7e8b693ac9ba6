import { auditSettingsSchema, type AuditSettings } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const auditSettingsKey = ['setting', 'audit'] as const;

/** GET /api/setting/audit: how many years audit records are kept (administrators). */
export function getAuditSettings(signal?: AbortSignal): Promise<AuditSettings> {
  return apiFetch('/setting/audit', { schema: auditSettingsSchema, signal });
}

/** PUT /api/setting/audit `{retentionYears}`. */
export function setAuditSettings(settings: AuditSettings): Promise<AuditSettings> {
  return apiFetch('/setting/audit', { method: 'PUT', body: settings, schema: auditSettingsSchema });
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
