import { AUDIT_ACTIONS, auditService, type AuditAction, type AuditRecord } from '@bogwan/contracts';
import type { TFunction } from 'i18next';
import { k, type TranslationKey } from '../../../i18n/keys';

/**
 * The reader's words for every action of the vocabulary. Typed over the vocabulary, so an
 * action added to the contract without a text here fails the typecheck (and the unit test
 * checks both catalogues hold it).
 */
export const ACTION_LABELS: Record<AuditAction, TranslationKey> = {
  'auth.setup': k('audit_action_auth_setup'),
  'auth.sign_in': k('audit_action_auth_sign_in'),
  'auth.sign_in_failed': k('audit_action_auth_sign_in_failed'),
  'auth.locked': k('audit_action_auth_locked'),
  'auth.sign_out': k('audit_action_auth_sign_out'),
  'auth.password_change': k('audit_action_auth_password_change'),
  'auth.password_check_failed': k('audit_action_auth_password_check_failed'),
  'auth.factor_change': k('audit_action_auth_factor_change'),
  'auth.app_password_create': k('audit_action_auth_app_password_create'),
  'auth.app_password_revoke': k('audit_action_auth_app_password_revoke'),
  'account.create': k('audit_action_account_create'),
  'account.update': k('audit_action_account_update'),
  'account.delete': k('audit_action_account_delete'),
  'account.status': k('audit_action_account_status'),
  'account.role': k('audit_action_account_role'),
  'account.avatar': k('audit_action_account_avatar'),
  'group.create': k('audit_action_group_create'),
  'group.update': k('audit_action_group_update'),
  'group.delete': k('audit_action_group_delete'),
  'group.members': k('audit_action_group_members'),
  'permission.change': k('audit_action_permission_change'),
  'permission.default_change': k('audit_action_permission_default_change'),
  'file.view': k('audit_action_file_view'),
  'file.download': k('audit_action_file_download'),
  'file.download_zip': k('audit_action_file_download_zip'),
  'file.download_version': k('audit_action_file_download_version'),
  'file.upload': k('audit_action_file_upload'),
  'file.move': k('audit_action_file_move'),
  'file.copy': k('audit_action_file_copy'),
  'file.rename': k('audit_action_file_rename'),
  'file.mkdir': k('audit_action_file_mkdir'),
  'file.lock': k('audit_action_file_lock'),
  'file.trash': k('audit_action_file_trash'),
  'file.purge': k('audit_action_file_purge'),
  'file.restore': k('audit_action_file_restore'),
  'file.volume': k('audit_action_file_volume'),
  'share.create': k('audit_action_share_create'),
  'share.update': k('audit_action_share_update'),
  'share.revoke': k('audit_action_share_revoke'),
  'share.download': k('audit_action_share_download'),
  'share.unlock_failed': k('audit_action_share_unlock_failed'),
  'request.create': k('audit_action_request_create'),
  'request.approve': k('audit_action_request_approve'),
  'request.reject': k('audit_action_request_reject'),
  'request.cancel': k('audit_action_request_cancel'),
  'request.expire': k('audit_action_request_expire'),
  'settings.change': k('audit_action_settings_change'),
  'licence.apply': k('audit_action_licence_apply'),
  'licence.refused': k('audit_action_licence_refused'),
  'admin_mode.on': k('audit_action_admin_mode_on'),
  'admin_mode.off': k('audit_action_admin_mode_off'),
  'admin_mode.refused': k('audit_action_admin_mode_refused'),
  'snapshot.run': k('audit_action_snapshot_run'),
  'snapshot.restore': k('audit_action_snapshot_restore'),
  'snapshot.plan_change': k('audit_action_snapshot_plan_change'),
  'webhook.create': k('audit_action_webhook_create'),
  'webhook.delete': k('audit_action_webhook_delete'),
  'webhook.call': k('audit_action_webhook_call'),
  'webhook.refused': k('audit_action_webhook_refused'),
  'webhook.hosts_change': k('audit_action_webhook_hosts_change'),
  'notice.create': k('audit_action_notice_create'),
  'notice.delete': k('audit_action_notice_delete'),
  'storage.sync': k('audit_action_storage_sync'),
  'audit.purge': k('audit_action_audit_purge'),
  'audit.retention_change': k('audit_action_audit_retention_change'),
  'audit.export': k('audit_action_audit_export'),
  legacy: k('audit_action_legacy'),
};

/** The families of the vocabulary (the part before the dot), in the order the filter lists them. */
export const FAMILY_LABELS: Record<string, TranslationKey> = {
  file: k('audit_family_file'),
  share: k('audit_family_share'),
  request: k('audit_family_request'),
  auth: k('audit_family_auth'),
  account: k('audit_family_account'),
  group: k('audit_family_group'),
  permission: k('audit_family_permission'),
  settings: k('audit_family_settings'),
  licence: k('audit_family_licence'),
  admin_mode: k('audit_family_admin_mode'),
  snapshot: k('audit_family_snapshot'),
  webhook: k('audit_family_webhook'),
  notice: k('audit_family_notice'),
  storage: k('audit_family_storage'),
  audit: k('audit_family_audit'),
  legacy: k('audit_family_legacy'),
};

/** The vocabulary grouped by family, families in FAMILY_LABELS' order. */
export function actionsByFamily(): Array<{ family: string; actions: AuditAction[] }> {
  const families = Object.keys(FAMILY_LABELS);
  const groups = new Map<string, AuditAction[]>();
  for (const action of AUDIT_ACTIONS) {
    const family = auditService(action);
    groups.set(family, [...(groups.get(family) ?? []), action]);
  }
  return [...groups]
    .sort(([a], [b]) => indexOr(families, a) - indexOr(families, b))
    .map(([family, actions]) => ({ family, actions }));
}

function indexOr(list: string[], value: string): number {
  const index = list.indexOf(value);
  return index < 0 ? list.length : index;
}

/** The name of an action in the reader's language; an action this build does not know shows as recorded. */
export function actionLabel(t: TFunction, action: string): string {
  const key = (ACTION_LABELS as Record<string, TranslationKey | undefined>)[action];
  return key ? t(key) : action;
}

/** The name of a family of actions. */
export function familyLabel(t: TFunction, family: string): string {
  const key = FAMILY_LABELS[family];
  return key ? t(key) : family;
}

/**
 * What a record's params add to its action, in the reader's language: a detail text whose
 * placeholders are all present in the params (a record without them shows no detail rather
 * than a half-filled sentence); a legacy row shows the message it was stored with.
 */
export const ACTION_DETAILS: Partial<Record<AuditAction, TranslationKey>> = {
  'file.move': k('audit_detail_file_move'),
  'file.copy': k('audit_detail_file_copy'),
  'file.rename': k('audit_detail_file_rename'),
  'settings.change': k('audit_detail_settings_change'),
  'audit.retention_change': k('audit_detail_audit_retention_change'),
  'auth.sign_in_failed': k('audit_detail_auth_sign_in'),
  'auth.locked': k('audit_detail_auth_sign_in'),
};

const PLACEHOLDER = /\{\{\s*([a-zA-Z0-9_]+)\s*\}\}/g;

/** The names a catalogue text interpolates. */
export function placeholders(text: string): string[] {
  return Array.from(text.matchAll(PLACEHOLDER), (match) => match[1] as string);
}

/** The detail line of a record, or '' when it has none. */
export function actionDetail(t: TFunction, record: Pick<AuditRecord, 'action' | 'params' | 'message'>): string {
  if (record.action === 'legacy') {
    const stored = record.params.message;
    return typeof stored === 'string' && stored ? stored : record.message;
  }
  const key = (ACTION_DETAILS as Record<string, TranslationKey | undefined>)[record.action];
  if (!key) return '';
  const template = t(key);
  const values: Record<string, string> = {};
  for (const name of placeholders(template)) {
    const value = record.params[name];
    if (value === undefined || value === null || value === '') return '';
    values[name] = String(value);
  }
  // The key is chosen at runtime, so its interpolation values cannot be typed per key.
  const translate = t as unknown as (key: string, options: Record<string, string>) => string;
  return translate(key, values);
}
