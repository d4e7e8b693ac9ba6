import type { Db } from '../../db/index.js';
import type { NewUserRow } from '../users/users.repo.js';

export const SETUP_TOKEN_KEY = 'setup.token';
const SETUP_DONE_KEY = 'setup.done';

/** SQL of the first run: creating the first account exactly once, even under a race. */
export class SetupRepo {
  constructor(private readonly db: Db) {}

  /**
   * Creates the first account and retires the setup token in one transaction. The
   * `setup.done` row is the claim: a second concurrent setup fails on its primary key.
   * Answers false when another setup won.
   */
  async completeSetup(user: NewUserRow): Promise<boolean> {
    try {
      await this.db.transaction().execute(async (trx) => {
        await trx
          .insertInto('settings')
          .values({ key: SETUP_DONE_KEY, value: JSON.stringify(user.created_at), updated_at: user.created_at })
          .execute();
        await trx.insertInto('users').values(user).execute();
        await trx.deleteFrom('settings').where('key', '=', SETUP_TOKEN_KEY).execute();
      });
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }
}

/** True for a primary-key or unique-constraint violation on SQLite or PostgreSQL. */
export function isUniqueViolation(error: unknown): boolean {
  const e = error as { code?: string } | null;
  return e?.code === '23505' || e?.code === 'SQLITE_CONSTRAINT_PRIMARYKEY' || e?.code === 'SQLITE_CONSTRAINT_UNIQUE';
}
