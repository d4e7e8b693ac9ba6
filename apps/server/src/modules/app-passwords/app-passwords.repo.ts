import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { AppPasswordsTable } from '../../db/schema.js';
import { isUniqueViolation } from '../auth/setup.repo.js';
import { holdSerialLock } from '../limits/serial-lock.repo.js';

export type AppPasswordRow = Selectable<AppPasswordsTable>;
/** Why an insert was refused: the account holds `cap` already, or the name is taken. */
export type AppPasswordRefusal = 'limit' | 'name_taken';

/** SQL for app passwords; the only place that reads or writes the app_passwords table. */
export class AppPasswordsRepo {
  constructor(private readonly db: Db) {}

  /**
   * Inserts `row` unless the account already holds `cap` app passwords or one named the same.
   * The count and the insert run under a lock of the account's app passwords (one row write,
   * taken first: PostgreSQL holds it until commit, SQLite takes its write lock), so parallel
   * creations on any number of processes never pass the cap. The unique index on
   * (user_id, name) settles equal names.
   */
  async insertUnderCap(row: AppPasswordRow, cap: number): Promise<AppPasswordRefusal | undefined> {
    try {
      return await this.db.transaction().execute(async (trx) => {
        await holdSerialLock(trx, `app-passwords:${row.user_id}`);
        const held = await trx
          .selectFrom('app_passwords')
          .select((eb) => eb.fn.countAll<number | string>().as('n'))
          .where('user_id', '=', row.user_id)
          .executeTakeFirstOrThrow();
        if (Number(held.n) >= cap) return 'limit' as const;
        const same = await trx.selectFrom('app_passwords').select('id').where('user_id', '=', row.user_id).where('name', '=', row.name).executeTakeFirst();
        if (same) return 'name_taken' as const;
        await trx.insertInto('app_passwords').values(row).execute();
        return undefined;
      });
    } catch (error) {
      if (isUniqueViolation(error)) return 'name_taken';
      throw error;
    }
  }

  listOfUser(userId: string): Promise<AppPasswordRow[]> {
    return this.db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).orderBy('created_at', 'desc').orderBy('id', 'desc').execute();
  }

  /** The account's app passwords whose lookup part is `lookup` (almost always one, or none). */
  candidates(userId: string, lookup: string): Promise<AppPasswordRow[]> {
    return this.db.selectFrom('app_passwords').selectAll().where('user_id', '=', userId).where('lookup', '=', lookup).execute();
  }

  /** Deletes the account's app password `id`; false when the account has none by that id. */
  async deleteOfUser(userId: string, id: string): Promise<boolean> {
    const result = await this.db.deleteFrom('app_passwords').where('id', '=', id).where('user_id', '=', userId).executeTakeFirst();
    return Number(result.numDeletedRows) === 1;
  }

  /** Records a use unless one was recorded after `staleBefore` (one write a minute, on every process). */
  async recordUse(id: string, at: string, ip: string, staleBefore: string): Promise<void> {
    await this.db
      .updateTable('app_passwords')
      .set({ last_used_at: at, last_used_ip: ip })
      .where('id', '=', id)
      .where((eb) => eb.or([eb('last_used_at', 'is', null), eb('last_used_at', '<', staleBefore)]))
      .execute();
  }
}
