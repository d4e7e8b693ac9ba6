import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { EventsTable } from '../../db/schema.js';

/** SQL for the activity log. */
export class EventsRepo {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<EventsTable>): Promise<void> {
    await this.db.insertInto('events').values(row).execute();
  }

  /** A user's events, newest first. */
  listOfUser(userId: string, skip: number, limit: number) {
    return this.db
      .selectFrom('events')
      .selectAll()
      .where('user_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .offset(skip)
      .limit(limit)
      .execute();
  }
}
