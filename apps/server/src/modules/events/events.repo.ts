import type { Insertable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { EventsTable } from '../../db/schema.js';

/** SQL for the activity log. */
export class EventsRepo {
  constructor(private readonly db: Db) {}

  async insert(row: Insertable<EventsTable>): Promise<void> {
    await this.db.insertInto('events').values(row).execute();
  }

  /** Events newest first, of one user or (userId undefined) of everyone. */
  async page(userId: string | undefined, skip: number, limit: number) {
    let q = this.db.selectFrom('events');
    if (userId !== undefined) q = q.where('user_id', '=', userId);
    const [items, count] = await Promise.all([
      q.selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').offset(skip).limit(limit).execute(),
      q.select((eb) => eb.fn.countAll<number | string>().as('n')).executeTakeFirstOrThrow(),
    ]);
    return { items, total: Number(count.n) };
  }
}
