import type { TestServer } from './harness.js';

/** One audit record as the tests read it: params parsed, the chain's columns left out. */
export interface RecordedAction {
  seq: number;
  action: string;
  outcome: string;
  reason: string | null;
  actorKind: string;
  actorId: string | null;
  actorAccountId: string | null;
  targetKind: string | null;
  targetId: string | null;
  targetPath: string | null;
  params: Record<string, unknown>;
  ip: string | null;
  userAgent: string | null;
}

/** The audit records written since `afterSeq` (all by default), oldest first; optionally of some actions only. */
export async function recordsOf(server: TestServer, options: { actions?: string[]; afterSeq?: number } = {}): Promise<RecordedAction[]> {
  let query = server.app.db
    .selectFrom('audit_records')
    .selectAll()
    .where('seq', '>', options.afterSeq ?? 0);
  if (options.actions) query = query.where('action', 'in', options.actions);
  const rows = await query.orderBy('seq').execute();
  return rows.map((row) => ({
    seq: Number(row.seq),
    action: row.action,
    outcome: row.outcome,
    reason: row.reason,
    actorKind: row.actor_kind,
    actorId: row.actor_id,
    actorAccountId: row.actor_account_id,
    targetKind: row.target_kind,
    targetId: row.target_id,
    targetPath: row.target_path,
    params: JSON.parse(row.params) as Record<string, unknown>,
    ip: row.ip,
    userAgent: row.user_agent,
  }));
}

/** The newest record's seq (0 when none): take it before an action, then read what the action wrote. */
export async function lastSeq(server: TestServer): Promise<number> {
  const row = await server.app.db
    .selectFrom('audit_records')
    .select((eb) => eb.fn.max('seq').as('seq'))
    .executeTakeFirst();
  return Number(row?.seq ?? 0);
}
