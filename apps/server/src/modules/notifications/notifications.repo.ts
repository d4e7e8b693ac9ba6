import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { NotificationsTable } from '../../db/schema.js';

export type NotificationRow = Selectable<NotificationsTable>;

/** SQL for per-user notifications. */
export class NotificationsRepo {
  constructor(private readonly db: Db) {}

  async insert(row: NotificationRow): Promise<void> {
    await this.db.insertInto('notifications').values(row).execute();
  }

  /** Newest first. */
  list(userId: string, read: boolean | undefined, limit = 200): Promise<NotificationRow[]> {
    let q = this.db.selectFrom('notifications').selectAll().where('user_id', '=', userId);
    if (read !== undefined) q = q.where('read', '=', read ? 1 : 0);
    return q.orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  /** Marks one of the user's notifications; false when it is not theirs. */
  async setRead(userId: string, id: string, read: boolean): Promise<boolean> {
    const r = await this.db
      .updateTable('notifications')
      .set({ read: read ? 1 : 0 })
      .where('id', '=', id)
      .where('user_id', '=', userId)
      .executeTakeFirst();
    return Number(r.numUpdatedRows) === 1;
  }

  async readAll(userId: string): Promise<void> {
    await this.db.updateTable('notifications').set({ read: 1 }).where('user_id', '=', userId).where('read', '=', 0).execute();
  }
}
