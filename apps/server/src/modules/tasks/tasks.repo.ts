import type { Selectable, Updateable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { TasksTable } from '../../db/schema.js';

export type TaskRow = Selectable<TasksTable>;

/** A task in one of these states is over; its status and figures no longer change. */
export const FINISHED_STATUSES = ['completed', 'canceled', 'failure'];

/** SQL for background tasks; kept in the database so every server process sees them. */
export class TasksRepo {
  constructor(private readonly db: Db) {}

  async insert(row: TaskRow): Promise<void> {
    await this.db.insertInto('tasks').values(row).execute();
  }

  /**
   * Applies `changes`; with `whileActive`, only to a task that has not finished yet (one
   * atomic statement, so of two processes finishing the same task exactly one changes it).
   * Answers the row as it is now and whether this call changed it.
   */
  async update(id: string, changes: Updateable<TasksTable>, whileActive = false): Promise<{ row: TaskRow | undefined; changed: boolean }> {
    let query = this.db.updateTable('tasks').set(changes).where('id', '=', id);
    if (whileActive) query = query.where('status', 'not in', FINISHED_STATUSES);
    const result = await query.executeTakeFirst();
    return { row: await this.find(id), changed: Number(result.numUpdatedRows) > 0 };
  }

  find(id: string): Promise<TaskRow | undefined> {
    return this.db.selectFrom('tasks').selectAll().where('id', '=', id).executeTakeFirst();
  }

  ofOwner(ownerId: string, limit = 500): Promise<TaskRow[]> {
    return this.db.selectFrom('tasks').selectAll().where('owner_id', '=', ownerId).orderBy('id', 'desc').limit(limit).execute();
  }

  /** The running or pending task of a type that names this snapshot or restore. */
  findActive(type: 'snapshot' | 'restore', ref: string): Promise<TaskRow | undefined> {
    const column = type === 'snapshot' ? 'snapshot_id' : 'restore_id';
    return this.db
      .selectFrom('tasks')
      .selectAll()
      .where('type', '=', type)
      .where(column, '=', ref)
      .where('status', 'in', ['pending', 'running'])
      .executeTakeFirst();
  }

  async delete(id: string): Promise<void> {
    await this.db.deleteFrom('tasks').where('id', '=', id).execute();
  }

  async purgeFinishedBefore(before: string): Promise<void> {
    await this.db.deleteFrom('tasks').where('status', 'in', FINISHED_STATUSES).where('updated_at', '<', before).execute();
  }
}
