import type { Insertable, Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { AccessLogTable } from '../../db/schema.js';

export type AccessLogRow = Selectable<AccessLogTable>;
export type NewAccessLogRow = Insertable<AccessLogTable>;

/** SQL for the bounded HTTP access log. */
export class AccessLogRepo {
  constructor(private readonly db: Db) {}

  async insertMany(rows: NewAccessLogRow[]): Promise<void> {
    if (rows.length === 0) return;
    await this.db.insertInto('access_log').values(rows).execute();
  }

  /** Deletes all but the newest `keep` rows. */
  async trimTo(keep: number): Promise<void> {
    const boundary = await this.db
      .selectFrom('access_log')
      .select('id')
      .orderBy('id', 'desc')
      .offset(keep)
      .limit(1)
      .executeTakeFirst();
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
}
