// The audit trail's SQL: appends under the chain head's lock, and the queries of the
// activity screens and the export. It replaced the old activity log (`events`), whose rows
// became `legacy` records (migration 20261127_1401) before the table was dropped (1402).
import { AUDIT_COUNT_CAP, AUDIT_PEOPLE_LIMIT, type AuditOutcome } from '@bogwan/contracts';
import { type ExpressionBuilder, sql, type Transaction } from 'kysely';
import { isSqlite } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import type { AuditRecordsTable, Database } from '../../db/schema.js';
import { recordHash, type UnhashedRecord } from './audit-chain.js';

/** A record to append: everything but its place in the chain (and its time, unless given: imports and tests). */
export type NewAuditRecord = Omit<UnhashedRecord, 'seq' | 'prev_hash' | 'at'> & { at?: string };

/** A stored record with the actor account's current name and e-mail. */
export type AuditRow = AuditRecordsTable & { account_name: string | null; account_email: string | null };

/** Filters of the list and the export, already narrowed by visibility. */
export interface AuditRepoFilter {
  actorAccountId?: string;
  /** NFC path: records of it and of everything below it. */
  path?: string;
  nodeId?: string;
  actions?: string[];
  outcome?: AuditOutcome;
  from?: string;
  to?: string;
}

/** The keyword for LIKE with a backslash as the escape character. */
export function escapeLike(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

type RecordsEb = ExpressionBuilder<Database & { r: AuditRecordsTable }, 'r'>;

/**
 * The records of `path` and of everything below it, the path's characters taken literally.
 * PostgreSQL: LIKE 'path/%' with `%`, `_` and `\` escaped (served by the text_pattern_ops
 * index). SQLite: the byte range ['path/', 'path0') — '0' follows '/' — because its LIKE
 * ignores ASCII case and cannot use a plain index; under its binary collation the range is
 * exactly the strings that start with 'path/'.
 */
function underPath(eb: RecordsEb, path: string, sqlite: boolean) {
  if (path === '/') return eb('r.target_path', 'is not', null);
  const below = sqlite
    ? eb.and([eb('r.target_path', '>=', `${path}/`), eb('r.target_path', '<', `${path}0`)])
    : sql<boolean>`r.target_path like ${`${escapeLike(path)}/%`} escape '\\'`;
  return eb.or([eb('r.target_path', '=', path), below]);
}

function whereFilter(eb: RecordsEb, f: AuditRepoFilter, sqlite: boolean) {
  const all = [];
  if (f.actorAccountId !== undefined) all.push(eb('r.actor_account_id', '=', f.actorAccountId));
  if (f.nodeId !== undefined) all.push(eb('r.target_id', '=', f.nodeId));
  if (f.actions !== undefined && f.actions.length > 0) all.push(eb('r.action', 'in', f.actions));
  if (f.outcome !== undefined) all.push(eb('r.outcome', '=', f.outcome));
  if (f.from !== undefined) all.push(eb('r.at', '>=', f.from));
  if (f.to !== undefined) all.push(eb('r.at', '<', f.to));
  if (f.path !== undefined) all.push(underPath(eb, f.path, sqlite));
  return eb.and(all);
}

/** SQL of the audit trail. */
export class AuditRepo {
  constructor(private readonly db: Db) {}

  /** Appends made outside a transaction since the last group commit, each with its caller. */
  private waiting: { records: NewAuditRecord[]; done: (seqs: number[]) => void; failed: (error: unknown) => void }[] = [];

  /**
   * Appends the records, in order, at the head of the chain, inside `trx` when given (the
   * action's own transaction: its commit and the records' are one) or else in a short
   * transaction of its own. The head row is locked first (an update of it: PostgreSQL locks
   * the row, SQLite takes the database's write lock), so appends from any number of
   * processes queue one behind the other and the chain never forks.
   *
   * Without `trx`, appends made in the same turn of the event loop are written together, in
   * order, in one transaction (a group commit): under load, many downloads' records cost one
   * lock of the head and one commit instead of one each. Each caller's promise still settles
   * only after its records are committed. Should the group fail, each append is tried again
   * alone, so one append's failure is never another's.
   */
  append(records: NewAuditRecord[], trx?: Transaction<Database>): Promise<number[]> {
    if (records.length === 0) return Promise.resolve([]);
    if (trx) return this.appendIn(trx, records);
    return new Promise((done, failed) => {
      this.waiting.push({ records, done, failed });
      if (this.waiting.length === 1) setImmediate(() => void this.commitGroup());
    });
  }

  private async commitGroup(): Promise<void> {
    const group = this.waiting;
    this.waiting = [];
    try {
      const seqs = await this.db.transaction().execute((t) =>
        this.appendIn(
          t,
          group.flatMap((append) => append.records),
        ),
      );
      let at = 0;
      for (const append of group) {
        append.done(seqs.slice(at, at + append.records.length));
        at += append.records.length;
      }
    } catch (error) {
      if (group.length === 1) return group[0]!.failed(error);
      for (const append of group) {
        await this.db
          .transaction()
          .execute((t) => this.appendIn(t, append.records))
          .then(append.done, append.failed);
      }
    }
  }

  private async appendIn(t: Transaction<Database>, records: NewAuditRecord[]): Promise<number[]> {
    // An update of the head row that changes nothing locks it (PostgreSQL: the row until
    // commit; SQLite: the database's write lock) and answers it with the time of the last
    // record, in one statement.
    const head = await t
      .updateTable('audit_chain')
      .set({ seq: sql`seq` })
      .where('id', '=', 'main')
      .returning((eb) => [
        'seq',
        'hash',
        eb.selectFrom('audit_records').select('audit_records.at').whereRef('audit_records.seq', '=', 'audit_chain.seq').as('last_at'),
      ])
      .executeTakeFirstOrThrow();
    let seq = Number(head.seq);
    let prev = head.hash;
    // Times never go back along the chain (clocks of several processes may differ a little),
    // so a time range and a range of seq are the same records.
    const now = new Date().toISOString();
    const at = head.last_at && head.last_at > now ? head.last_at : now;
    const rows = records.map((r) => {
      seq += 1;
      const unhashed: UnhashedRecord = { ...r, at: r.at ?? at, seq, prev_hash: prev };
      prev = recordHash(unhashed);
      return { ...unhashed, hash: prev };
    });
    // SQLite binds at most 32,766 values per statement: 500 rows of 19 columns at a time.
    for (let i = 0; i < rows.length; i += 500)
      await t
        .insertInto('audit_records')
        .values(rows.slice(i, i + 500))
        .execute();
    await t.updateTable('audit_chain').set({ seq, hash: prev }).where('id', '=', 'main').execute();
    return rows.map((r) => r.seq);
  }

  /** `name <email>` of an account, or null when there is none. */
  async accountLabel(accountId: string, trx?: Transaction<Database>): Promise<string | null> {
    const row = await (trx ?? this.db).selectFrom('users').select(['name', 'email']).where('id', '=', accountId).executeTakeFirst();
    return row ? `${row.name} <${row.email}>` : null;
  }

  private filtered(f: AuditRepoFilter) {
    const sqlite = isSqlite(this.db);
    return this.db.selectFrom('audit_records as r').where((eb) => whereFilter(eb, f, sqlite));
  }

  /**
   * One page, newest first: after the cursor (`before`, a seq: index walk, no OFFSET), or
   * with `skip` for the spec's paged call. Answers the rows with the actors' current names.
   */
  page(f: AuditRepoFilter, at: { before?: number; skip?: number; limit: number }): Promise<AuditRow[]> {
    let q = this.filtered(f)
      .leftJoin('users as u', 'u.id', 'r.actor_account_id')
      .selectAll('r')
      .select(['u.name as account_name', 'u.email as account_email'])
      .orderBy('r.seq', 'desc')
      .limit(at.limit);
    if (at.before !== undefined) q = q.where('r.seq', '<', at.before);
    else if (at.skip) q = q.offset(at.skip);
    return q.execute() as Promise<AuditRow[]>;
  }

  /** Matching rows counted up to the cap (a count of millions on every page is not worth its time). */
  async count(f: AuditRepoFilter): Promise<{ total: number; capped: boolean }> {
    const capped = this.filtered(f)
      .select(sql<number>`1`.as('one'))
      .limit(AUDIT_COUNT_CAP + 1);
    const row = await this.db
      .selectFrom(capped.as('c'))
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    const n = Number(row.n);
    return { total: Math.min(n, AUDIT_COUNT_CAP), capped: n > AUDIT_COUNT_CAP };
  }

  /** Every matching row, newest first, a page at a time (never all of them in memory). */
  async *stream(f: AuditRepoFilter, pageSize: number): AsyncGenerator<AuditRow[]> {
    let before: number | undefined;
    for (;;) {
      const rows = await this.page(f, { before, limit: pageSize });
      if (rows.length === 0) return;
      yield rows;
      if (rows.length < pageSize) return;
      before = Number(rows[rows.length - 1]!.seq);
    }
  }

  /** Accounts whose name or e-mail contains `q` (case-insensitive), by name; `onlyId` narrows to one account. */
  people(q: string, onlyId?: string) {
    const pattern = `%${escapeLike(q.toLowerCase())}%`;
    let query = this.db
      .selectFrom('users')
      .select(['id', 'name', 'email'])
      .where((eb) => eb.or([sql<boolean>`lower(name) like ${pattern} escape '\\'`, sql<boolean>`lower(email) like ${pattern} escape '\\'`]))
      .orderBy('name')
      .orderBy('email')
      .limit(AUDIT_PEOPLE_LIMIT);
    if (onlyId !== undefined) query = query.where('id', '=', onlyId);
    return query.execute();
  }
}
