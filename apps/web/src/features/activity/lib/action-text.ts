import { AUDIT_ACTIONS, auditActionName, auditService, type AuditAction, type AuditRecord, type Locale } from '@bogwan/contracts';
import type { TFunction } from 'i18next';
import { k, type TranslationKey } from '../../../i18n/keys';
import { readLegacyMessage } from './legacy-action';

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
  return [...groups].sort(([a], [b]) => indexOr(families, a) - indexOr(families, b)).map(([family, actions]) => ({ family, actions }));
}

function indexOr(list: string[], value: string): number {
  const index = list.indexOf(value);
  return index < 0 ? list.length : index;
}

/**
 * The name of an action in the reader's language, from the contract's names (the same the
 * server writes into exports); an action this build does not know shows as recorded.
 */
export function actionLabel(locale: Locale, action: string): string {
  return auditActionName(action, locale);
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

/**
 * A record's action name and detail line as the reader sees them. An old activity-log row
 * holds an English sentence: in Korean it reads as the action that sentence stands for
 * (with the path or name it mentions) where one can be told, and as stored otherwise.
 */
export function recordText(t: TFunction, locale: Locale, record: Pick<AuditRecord, 'action' | 'params' | 'message'>): { label: string; detail: string } {
  if (record.action === 'legacy' && locale === 'ko') {
    const reading = readLegacyMessage(actionDetail(t, record));
    if (reading) return { label: actionLabel(locale, reading.action), detail: reading.subject };
  }
  return { label: actionLabel(locale, record.action), detail: actionDetail(t, record) };
}
