import type { AccessLogFilter } from '@bogwan/contracts';
import { type Insertable, type SelectQueryBuilder, type Selectable, sql } from 'kysely';
import type { Db } from '../../db/index.js';
import type { AccessLogTable, Database } from '../../db/schema.js';

export type AccessLogRow = Selectable<AccessLogTable>;
export type NewAccessLogRow = Insertable<AccessLogTable>;

/** A LIKE pattern that matches `text` literally (a backslash escapes `%`, `_` and itself). */
function literal(text: string): string {
  return text.replace(/[\\%_]/g, (c) => `\\${c}`);
}

/** The filters of the system log as WHERE clauses. */
function filtered<O>(query: SelectQueryBuilder<Database, 'access_log', O>, filter: AccessLogFilter) {
  let q = query;
  if (filter.ip) q = q.where(sql<boolean>`ip like ${`${literal(filter.ip)}%`} escape '\\'`);
  if (filter.method) q = q.where('method', '=', filter.method);
  if (filter.url) q = q.where(sql<boolean>`lower(url) like ${`%${literal(filter.url.toLowerCase())}%`} escape '\\'`);
  if (filter.status) {
    const status = filter.status.toLowerCase();
    if (status.endsWith('xx')) {
      const low = Number(status[0]) * 100;
      q = q.where('status', '>=', low).where('status', '<', low + 100);
    } else {
      q = q.where('status', '=', Number(status));
    }
  }
  if (filter.from) q = q.where('created_at', '>=', new Date(filter.from).toISOString());
  if (filter.to) q = q.where('created_at', '<', new Date(filter.to).toISOString());
  return q;
}

/** SQL for the bounded HTTP access log. */
export class AccessLogRepo {
  constructor(private readonly db: Db) {}

  async insertMany(rows: NewAccessLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('access_log').values(rows).execute();
  }

  /** Deletes all but the newest `keep` rows. */
  async trimTo(keep: number): Promise<void> {
    const boundary = await this.db.selectFrom('access_log').select('id').orderBy('id', 'desc').offset(keep).limit(1).executeTakeFirst();
    if (boundary) await this.db.deleteFrom('access_log').where('id', '<=', boundary.id).execute();
  }

  /** Newest first. */
  list(skip: number, limit: number): Promise<AccessLogRow[]> {
    return this.db.selectFrom('access_log').selectAll().orderBy('id', 'desc').offset(skip).limit(limit).execute();
  }

  async count(): Promise<number> {
    const row = await this.db
      .selectFrom('access_log')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  /** A page of the entries that match, newest first, with how many match. */
  async search(filter: AccessLogFilter, skip: number, limit: number): Promise<{ rows: AccessLogRow[]; total: number }> {
    const base = filtered(this.db.selectFrom('access_log'), filter);
    const [rows, count] = await Promise.all([
      base.selectAll().orderBy('id', 'desc').offset(skip).limit(limit).execute(),
      base.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { rows, total: Number(count.n) };
  }

  /**
   * The entries that match, newest first, `batch` rows per read (keyset paging by id,
   * so rows written meanwhile neither shift nor repeat a batch); at most `max` rows.
   */
  async *matching(filter: AccessLogFilter, batch: number, max: number): AsyncGenerator<AccessLogRow[]> {
    let before: string | undefined;
    let left = max;
    while (left > 0) {
      let q = filtered(this.db.selectFrom('access_log'), filter).selectAll();
      if (before !== undefined) q = q.where('id', '<', before);
      const rows = await q.orderBy('id', 'desc').limit(Math.min(batch, left)).execute();
      if (rows.length === 0) return;
      yield rows;
      left -= rows.length;
      before = rows.at(-1)!.id;
      if (rows.length < batch) return;
    }
  }

  /** Deletes the entries written before `before` (ISO); answers how many went. */
  async deleteBefore(before: string): Promise<number> {
    const result = await this.db.deleteFrom('access_log').where('created_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}
