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

  /**
   * Adds one item to the user's open batch `row.batch_key`, or opens it with `row` when
   * there is none: the batch first closes if its time ran out, then one insert that turns
   * into an increment when the batch is open (the unique index on user and batch key), so
   * two processes finishing files of one batch at once make one row counting both.
   * Every addition keeps the batch open until `row.batch_until` and marks it unread again.
   */
  async addToBatch(row: NotificationRow): Promise<NotificationRow> {
    await this.db
      .updateTable('notifications')
      .set({ batch_key: null })
      .where('user_id', '=', row.user_id)
      .where('batch_key', '=', row.batch_key)
      .where('batch_until', '<=', row.created_at)
      .execute();
    return this.db
      .insertInto('notifications')
      .values({ ...row, batch_count: 1 })
      .onConflict((oc) =>
        oc.columns(['user_id', 'batch_key']).doUpdateSet((eb) => ({
          batch_count: eb('notifications.batch_count', '+', 1),
          batch_until: eb.ref('excluded.batch_until'),
          created_at: eb.ref('excluded.created_at'),
          read: 0,
        })),
      )
      .returningAll()
      .executeTakeFirstOrThrow();
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
