import { type AuditFilter, type AuditList, type AuditPerson, type AuditRecord, auditService } from '@bogwan/contracts';
import { badRequest, forbidden } from '../../errors.js';
import type { UserRow } from '../users/users.repo.js';
import type { AuditRepo, AuditRepoFilter, AuditRow } from './audit.repo.js';

/** Administrators (roleLevel ≥ 2) see everyone's records; every other account its own. */
export const AUDIT_ADMIN_LEVEL = 2;

function parsedParams(text: string): AuditRecord['params'] {
  try {
    const value = JSON.parse(text) as unknown;
    return value && typeof value === 'object' && !Array.isArray(value) ? (value as AuditRecord['params']) : {};
  } catch {
    return {};
  }
}

/** The short English line of the spec's `message` column; the web renders ko/en from action and params. */
function fallbackMessage(row: AuditRow, params: AuditRecord['params']): string {
  if (row.action === 'legacy') return typeof params.message === 'string' ? params.message : '';
  const what = row.target_path ?? row.target_label ?? row.target_id;
  const refused = row.outcome === 'refused' ? ` (refused${row.reason ? `: ${row.reason}` : ''})` : '';
  return `${row.action}${what ? ` ${what}` : ''}${refused}`;
}

/** A stored record as the API answers it. */
export function toAuditResponse(row: AuditRow): AuditRecord {
  const params = parsedParams(row.params);
  return {
    _id: String(row.seq),
    seq: Number(row.seq),
    createdAt: row.at,
    action: row.action,
    outcome: row.outcome === 'refused' ? 'refused' : 'allowed',
    reason: row.reason,
    actor: {
      kind: row.actor_kind as AuditRecord['actor']['kind'],
      id: row.actor_id,
      accountId: row.actor_account_id,
      label: row.actor_label,
      name: row.account_name,
      email: row.account_email,
    },
    target: row.target_kind
      ? { kind: row.target_kind as NonNullable<AuditRecord['target']>['kind'], id: row.target_id, path: row.target_path, label: row.target_label }
      : null,
    params,
    ip: row.ip,
    userAgent: row.user_agent,
    service: row.action === 'legacy' && typeof params.service === 'string' ? params.service : auditService(row.action),
    message: fallbackMessage(row, params),
    userId: row.actor_account_id,
  };
}

/** A path filter as stored paths are written: NFC, absolute, no trailing slash (but `/`). */
export function normalisedPathFilter(path: string): string {
  const nfc = path.normalize('NFC');
  if (!nfc.startsWith('/') || nfc.includes('\0')) throw badRequest('invalid_path');
  const trimmed = nfc.replace(/\/+$/, '');
  return trimmed === '' ? '/' : trimmed;
}

/** Reading the audit trail: who may see what, and the answers' shape. */
export class AuditQueries {
  constructor(private readonly repo: AuditRepo) {}

  /**
   * The caller's filter narrowed by visibility: an administrator may name any account (or
   * none: everyone's); anyone else sees their own records only and is refused another's.
   */
  visibleFilter(user: UserRow, f: AuditFilter): AuditRepoFilter {
    const named = f.actor ?? f.userId;
    if (f.actor !== undefined && f.userId !== undefined && f.actor !== f.userId) throw badRequest();
    const isAdmin = user.role_level >= AUDIT_ADMIN_LEVEL;
    if (!isAdmin && named !== undefined && named !== user.id) throw forbidden();
    return {
      actorAccountId: isAdmin ? named : user.id,
      path: f.path !== undefined ? normalisedPathFilter(f.path) : undefined,
      nodeId: f.node,
      actions: f.action,
      outcome: f.outcome,
      from: f.from !== undefined ? new Date(f.from).toISOString() : undefined,
      to: f.to !== undefined ? new Date(f.to).toISOString() : undefined,
    };
  }

  async list(filter: AuditRepoFilter, at: { before?: number; skip?: number; limit: number }): Promise<AuditList> {
    const [rows, count] = await Promise.all([this.repo.page(filter, at), this.repo.count(filter)]);
    return {
      items: rows.map(toAuditResponse),
      total: count.total,
      totalCapped: count.capped,
      next: rows.length === at.limit ? String(rows[rows.length - 1]!.seq) : null,
    };
  }

  /** Accounts matching `q` for the person filter: administrators anyone, others only themselves. */
  async people(user: UserRow, q: string): Promise<AuditPerson[]> {
    const rows = await this.repo.people(q.trim(), user.role_level >= AUDIT_ADMIN_LEVEL ? undefined : user.id);
    return rows.map((r) => ({ _id: r.id, name: r.name, email: r.email }));
  }
}
