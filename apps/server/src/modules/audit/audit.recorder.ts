import { AUDIT_PARAMS_MAX_CHARS, type AuditAction, type AuditOutcome, type AuditParams, type AuditTargetKind, type MessageKey } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import { type AuditActor, auditContext } from './audit-context.js';
import type { AuditRepo, NewAuditRecord } from './audit.repo.js';

/** What a record is about. Node targets give the node id and its path (normalised to NFC here). */
export interface AuditTarget {
  kind: AuditTargetKind;
  id?: string | null;
  path?: string | null;
  /** A human name of the target (account e-mail, group or plan name, link name). */
  label?: string | null;
}

/** One security-relevant action, as its module describes it. */
export interface AuditEntry {
  action: AuditAction;
  /** Default `allowed`. */
  outcome?: AuditOutcome;
  /** The message key of a refusal (`no_access_warning`, `login_failure`, …). */
  reason?: MessageKey | null;
  target?: AuditTarget | null;
  /** Small flat facts (names, counts, old and new values); rendered by the web in ko or en. */
  params?: AuditParams;
  /** Default: the request's actor (see auditContext), else the system. */
  actor?: AuditActor;
  /** Default: the request's client address and user agent. */
  ip?: string | null;
  userAgent?: string | null;
}

const TEXT_MAX = 2000;
const cut = (text: string | null | undefined, max = TEXT_MAX) => (text === null || text === undefined ? null : text.slice(0, max));

/** Params as stored: JSON text, values of long strings cut so the whole stays about under the limit; always valid JSON. */
function storedParams(params: AuditParams | undefined): string {
  const text = JSON.stringify(params ?? {});
  if (text.length <= AUDIT_PARAMS_MAX_CHARS) return text;
  const each = Math.max(16, Math.floor(AUDIT_PARAMS_MAX_CHARS / Math.max(1, Object.keys(params!).length)) - 32);
  const shortened = Object.fromEntries(Object.entries(params!).map(([k, v]) => [k.slice(0, 64), typeof v === 'string' ? v.slice(0, each) : v]));
  const text2 = JSON.stringify(shortened);
  // Still too long (a great many keys): the record keeps that it had params, not a cut JSON text.
  return text2.length <= AUDIT_PARAMS_MAX_CHARS * 2 ? text2 : JSON.stringify({ truncated: true });
}

/**
 * The one way to write the audit trail. `record(entry, trx)` inside an action's transaction
 * writes in that transaction: a failed audit write fails the action, and a rolled-back
 * action leaves no record. Without a transaction it writes on its own, and a failure is
 * logged at error level (the action has already happened; refusing its answer would not
 * undo it). In a transaction, call it last: the chain head stays locked until the commit.
 */
export class AuditRecorder {
  constructor(
    private readonly repo: AuditRepo,
    private readonly log: FastifyBaseLogger,
  ) {}

  async record(entry: AuditEntry, trx?: Transaction<Database>): Promise<void> {
    if (trx) {
      await this.repo.append([await this.toRow(entry, trx)], trx);
      return;
    }
    try {
      await this.repo.append([await this.toRow(entry)]);
    } catch (error) {
      this.log.error(
        { err: error, audit: { action: entry.action, outcome: entry.outcome, target: entry.target } },
        'AUDIT RECORD LOST: the audit trail could not be written',
      );
    }
  }

  /** Like `record` without a transaction, but a failure is thrown (callers that must not go on unrecorded). */
  async recordOrThrow(entry: AuditEntry): Promise<void> {
    await this.repo.append([await this.toRow(entry)]);
  }

  private async toRow(entry: AuditEntry, trx?: Transaction<Database>): Promise<NewAuditRecord> {
    const client = auditContext.current();
    const actor = entry.actor ?? auditContext.actor();
    let label = actor.label;
    if (label === undefined) label = actor.accountId ? await this.repo.accountLabel(actor.accountId, trx) : null;
    const target = entry.target ?? null;
    return {
      actor_kind: actor.kind,
      actor_id: cut(actor.id, 64),
      actor_account_id: cut(actor.accountId, 64),
      actor_label: cut(label, 400),
      action: entry.action,
      outcome: entry.outcome ?? 'allowed',
      reason: entry.reason ?? null,
      target_kind: target?.kind ?? null,
      target_id: cut(target?.id, 64),
      target_path: cut(target?.path?.normalize('NFC'), 4096),
      target_label: cut(target?.label, 400),
      params: storedParams(entry.params),
      ip: cut(entry.ip !== undefined ? entry.ip : (client?.ip ?? null), 64),
      user_agent: cut(entry.userAgent !== undefined ? entry.userAgent : (client?.userAgent ?? null), 512),
    };
  }
}
