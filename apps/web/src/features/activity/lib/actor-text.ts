import type { AuditRecord } from '@bogwan/contracts';
import type { TFunction } from 'i18next';

/** Who acted, as the table's first line: the account's name now, else as recorded, else the kind of actor. */
export function actorName(t: TFunction, actor: AuditRecord['actor']): string {
  if (actor.name) return actor.name;
  if (actor.label) return actor.label;
  switch (actor.kind) {
    case 'share_link':
      return t('audit_actor_share_link');
    case 'app_password':
      return t('audit_actor_app_password');
    case 'webhook':
      return t('audit_actor_webhook');
    case 'system':
      return t('audit_actor_system');
    default:
      return actor.accountId ? t('audit_actor_gone') : t('audit_actor_system');
  }
}

/** The second line under the name: the e-mail, or what kind of actor acted for the account. */
export function actorDetail(t: TFunction, actor: AuditRecord['actor']): string {
  const kind =
    actor.kind === 'app_password'
      ? t('audit_actor_app_password')
      : actor.kind === 'share_link'
        ? t('audit_actor_share_link')
        : actor.kind === 'webhook'
          ? t('audit_actor_webhook')
          : '';
  if (actor.email) return kind ? `${actor.email} · ${kind}` : actor.email;
  return actor.name || actor.label ? kind : '';
}
