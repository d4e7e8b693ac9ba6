import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { NoticesTable } from '../../db/schema.js';

export type NoticeRow = Selectable<NoticesTable>;

/** SQL for notices. */
export class NoticesRepo {
  constructor(private readonly db: Db) {}

  list(limit = 200): Promise<NoticeRow[]> {
    return this.db.selectFrom('notices').selectAll().orderBy('created_at', 'desc').limit(limit).execute();
  }

  async insert(row: NoticeRow): Promise<void> {
    await this.db.insertInto('notices').values(row).execute();
  }

  async delete(id: string): Promise<boolean> {
    const r = await this.db.deleteFrom('notices').where('id', '=', id).executeTakeFirst();
    return Number(r.numDeletedRows) === 1;
  }
}
