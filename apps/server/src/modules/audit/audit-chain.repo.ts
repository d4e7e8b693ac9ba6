import { sql, type Transaction } from 'kysely';
import { isSqlite } from '../../db/dialect.js';
import type { Db } from '../../db/index.js';
import type { AuditRecordsTable, Database } from '../../db/schema.js';

/** The chain head with the anchor (where a verifier starts after a purge). */
export interface ChainHead {
  seq: number;
  hash: string;
  anchorSeq: number;
  anchorHash: string;
}

/** SQL of the chain's upkeep: reading it in order, the daily digests, the retention purge. */
export class AuditChainRepo {
  constructor(readonly db: Db) {}

  /** Locks the head row until `trx` ends (the same lock every append takes). */
  private async lockHead(trx: Transaction<Database>): Promise<ChainHead> {
    if (isSqlite(trx))
      await trx
        .updateTable('audit_chain')
        .set({ seq: sql`seq` })
        .where('id', '=', 'main')
        .execute();
    let q = trx.selectFrom('audit_chain').selectAll().where('id', '=', 'main');
    if (!isSqlite(trx)) q = q.forUpdate();
    const row = await q.executeTakeFirstOrThrow();
    return { seq: Number(row.seq), hash: row.hash, anchorSeq: Number(row.anchor_seq), anchorHash: row.anchor_hash };
  }

  async head(): Promise<ChainHead> {
    const row = await this.findHead();
    if (!row) throw new Error('the audit chain head (table audit_chain, row main) is missing');
    return row;
  }

  /** The chain head, or undefined when its row is gone (deleted by hand: every append then fails). */
  async findHead(): Promise<ChainHead | undefined> {
    const row = await this.db.selectFrom('audit_chain').selectAll().where('id', '=', 'main').executeTakeFirst();
    return row && { seq: Number(row.seq), hash: row.hash, anchorSeq: Number(row.anchor_seq), anchorHash: row.anchor_hash };
  }

  /** The lowest and highest seq stored (undefined without records). */
  async seqRange(): Promise<{ min: number; max: number } | undefined> {
    const row = await this.db
      .selectFrom('audit_records')
      .select((eb) => [eb.fn.min<number>('seq').as('min'), eb.fn.max<number>('seq').as('max')])
      .executeTakeFirst();
    return row && row.min !== null && row.max !== null ? { min: Number(row.min), max: Number(row.max) } : undefined;
  }

  /** Records after `afterSeq` (up to `uptoSeq` when given), oldest first. */
  recordsAfter(afterSeq: number, limit: number, uptoSeq?: number): Promise<AuditRecordsTable[]> {
    let q = this.db.selectFrom('audit_records').selectAll().where('seq', '>', afterSeq);
    if (uptoSeq !== undefined) q = q.where('seq', '<=', uptoSeq);
    return q.orderBy('seq').limit(limit).execute();
  }

  record(seq: number): Promise<AuditRecordsTable | undefined> {
    return this.db.selectFrom('audit_records').selectAll().where('seq', '=', seq).executeTakeFirst();
  }

  /** The last record written before `before` (ISO), if any. */
  lastBefore(before: string): Promise<{ seq: number; hash: string } | undefined> {
    return this.db
      .selectFrom('audit_records')
      .select(['seq', 'hash'])
      .where('at', '<', before)
      .orderBy('at', 'desc')
      .orderBy('seq', 'desc')
      .limit(1)
      .executeTakeFirst();
  }

  /** The time of the first record kept, if any. */
  async firstAt(): Promise<string | undefined> {
    return (await this.db.selectFrom('audit_records').select('at').orderBy('seq').limit(1).executeTakeFirst())?.at;
  }

  /** The time of the first record after `seq`, if any. */
  async firstAtAfter(seq: number): Promise<string | undefined> {
    return (await this.db.selectFrom('audit_records').select('at').where('seq', '>', seq).orderBy('seq').limit(1).executeTakeFirst())?.at;
  }

  /** The newest digest, if any. */
  lastDigest() {
    return this.db.selectFrom('audit_digests').selectAll().orderBy('day', 'desc').limit(1).executeTakeFirst();
  }

  /** The day of the newest digest (YYYY-MM-DD), if any. */
  async lastDigestDay(): Promise<string | undefined> {
    return (await this.db.selectFrom('audit_digests').select('day').orderBy('day', 'desc').limit(1).executeTakeFirst())?.day;
  }

  /** Stores a day's digest unless one exists; true when this call stored it (so it alone writes it out). */
  async insertDigest(day: string, lastSeq: number, headHash: string): Promise<boolean> {
    const inserted = await this.db
      .insertInto('audit_digests')
      .values({ day, last_seq: lastSeq, head_hash: headHash, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('day').doNothing())
      .returning('day')
      .executeTakeFirst();
    return inserted !== undefined;
  }

  digests() {
    return this.db.selectFrom('audit_digests').selectAll().orderBy('day').execute();
  }

  /**
   * Deletes, oldest first and at most `batch` at a time, the records written before
   * `before`, and moves the anchor to the first record kept: its seq and the hash of the
   * last record deleted (which that record holds as prev_hash), in the same transaction,
   * so the chain stays verifiable from the anchor whatever moment the purge stops at.
   * Answers how many records went (0: nothing left to purge).
   */
  async purgeBatch(before: string, batch: number): Promise<{ removed: number; anchorSeq: number; anchorHash: string }> {
    // The hourly check that finds nothing to purge reads one row and takes no lock.
    const first = await this.db.selectFrom('audit_records').select('at').orderBy('seq').limit(1).executeTakeFirst();
    if (!first || first.at >= before) {
      const head = await this.head();
      return { removed: 0, anchorSeq: head.anchorSeq, anchorHash: head.anchorHash };
    }
    return this.db.transaction().execute(async (trx) => {
      const head = await this.lockHead(trx);
      const old = await trx.selectFrom('audit_records').select(['seq', 'hash', 'at']).where('seq', '>=', head.anchorSeq).orderBy('seq').limit(batch).execute();
      // Records are purged from the start of the chain only, up to the first one still young enough.
      const cut = old.findIndex((r) => r.at >= before);
      const doomed = cut < 0 ? old : old.slice(0, cut);
      if (doomed.length === 0) return { removed: 0, anchorSeq: head.anchorSeq, anchorHash: head.anchorHash };
      const last = doomed[doomed.length - 1]!;
      const lastSeq = Number(last.seq);
      await trx.deleteFrom('audit_records').where('seq', '>=', head.anchorSeq).where('seq', '<=', lastSeq).execute();
      await trx
        .updateTable('audit_chain')
        .set({ anchor_seq: lastSeq + 1, anchor_hash: last.hash })
        .where('id', '=', 'main')
        .execute();
      return { removed: doomed.length, anchorSeq: lastSeq + 1, anchorHash: last.hash };
    });
  }
}
