import { createHash } from 'node:crypto';
import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// The audit trail: an append-only table of records chained by SHA-256, the chain head
// (one row every append locks), and the daily digests. The rows of the old activity log
// (`events`) are copied in as `legacy` records, chained in their time order; `events`
// itself stays as it was (frozen: nothing writes it any more) until the dashboard no
// longer reads it, and a later migration drops it.

const GENESIS = '0'.repeat(64);

/** The canonical form of version 1 (a copy of modules/audit/audit-chain.ts, frozen here). */
function hashV1(r: Record<string, unknown>): string {
  const fields = [
    'bogwan-audit-v1',
    r.seq,
    r.at,
    r.actor_kind,
    r.actor_id,
    r.actor_account_id,
    r.actor_label,
    r.action,
    r.outcome,
    r.reason,
    r.target_kind,
    r.target_id,
    r.target_path,
    r.target_label,
    r.params,
    r.ip,
    r.user_agent,
    r.prev_hash,
  ];
  return createHash('sha256').update(JSON.stringify(fields), 'utf8').digest('hex');
}

interface EventRow {
  id: string;
  created_at: string;
  service: string;
  message: string;
  user_id: string | null;
  ip: string | null;
  name: string | null;
  email: string | null;
}

export async function up(db: Kysely<any>): Promise<void> {
  const sqlite = isSqlite(db);
  await db.schema
    .createTable('audit_records')
    .addColumn('seq', sqlite ? 'integer' : 'bigint', (c) => c.primaryKey())
    .addColumn('at', 'text', (c) => c.notNull())
    .addColumn('actor_kind', 'text', (c) => c.notNull())
    .addColumn('actor_id', 'text')
    .addColumn('actor_account_id', 'text')
    .addColumn('actor_label', 'text')
    .addColumn('action', 'text', (c) => c.notNull())
    .addColumn('outcome', 'text', (c) => c.notNull())
    .addColumn('reason', 'text')
    .addColumn('target_kind', 'text')
    .addColumn('target_id', 'text')
    .addColumn('target_path', 'text')
    .addColumn('target_label', 'text')
    .addColumn('params', 'text', (c) => c.notNull())
    .addColumn('ip', 'text')
    .addColumn('user_agent', 'text')
    .addColumn('prev_hash', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('audit_records_actor').on('audit_records').columns(['actor_account_id', 'seq']).execute();
  await db.schema.createIndex('audit_records_action').on('audit_records').columns(['action', 'seq']).execute();
  await db.schema.createIndex('audit_records_at').on('audit_records').column('at').execute();
  await db.schema.createIndex('audit_records_target').on('audit_records').columns(['target_id', 'seq']).execute();
  if (sqlite) {
    await db.schema.createIndex('audit_records_path').on('audit_records').column('target_path').execute();
  } else {
    // LIKE 'prefix%' uses a btree index on PostgreSQL only with the pattern operator class.
    await sql`create index audit_records_path on audit_records (target_path text_pattern_ops)`.execute(db);
  }

  await db.schema
    .createTable('audit_chain')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('seq', 'bigint', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('anchor_seq', 'bigint', (c) => c.notNull())
    .addColumn('anchor_hash', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('audit_digests')
    .addColumn('day', 'text', (c) => c.primaryKey())
    .addColumn('last_seq', 'bigint', (c) => c.notNull())
    .addColumn('head_hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();

  // The old activity log, oldest first, chained from the genesis hash.
  let seq = 0;
  let prev = GENESIS;
  let after: { created_at: string; id: string } | undefined;
  for (;;) {
    let q = db
      .selectFrom('events as e')
      .leftJoin('users as u', 'u.id', 'e.user_id')
      .select(['e.id', 'e.created_at', 'e.service', 'e.message', 'e.user_id', 'e.ip', 'u.name', 'u.email'])
      .orderBy('e.created_at')
      .orderBy('e.id')
      .limit(500);
    if (after) {
      const { created_at, id } = after;
      q = q.where((eb) => eb.or([eb('e.created_at', '>', created_at), eb.and([eb('e.created_at', '=', created_at), eb('e.id', '>', id)])]));
    }
    const rows = (await q.execute()) as EventRow[];
    if (rows.length === 0) break;
    const records = rows.map((e) => {
      seq += 1;
      const record = {
        seq,
        at: e.created_at,
        actor_kind: e.user_id ? 'account' : 'system',
        actor_id: e.user_id,
        actor_account_id: e.user_id,
        actor_label: e.email ? `${e.name ?? ''} <${e.email}>` : null,
        action: 'legacy',
        outcome: 'allowed',
        reason: null,
        target_kind: null,
        target_id: null,
        target_path: null,
        target_label: null,
        params: JSON.stringify({ service: e.service, message: e.message }),
        ip: e.ip,
        user_agent: null,
        prev_hash: prev,
      };
      prev = hashV1(record);
      return { ...record, hash: prev };
    });
    await db.insertInto('audit_records').values(records).execute();
    const last = rows[rows.length - 1]!;
    after = { created_at: last.created_at, id: last.id };
  }
  await db.insertInto('audit_chain').values({ id: 'main', seq, hash: prev, anchor_seq: 1, anchor_hash: GENESIS }).execute();
}
