import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { LoginChallengesTable } from '../../db/schema.js';

export type ChallengeRow = Selectable<LoginChallengesTable>;

/** SQL for sign-ins waiting for their second factor. */
export class ChallengesRepo {
  constructor(private readonly db: Db) {}

  async insert(row: ChallengeRow): Promise<void> {
    await this.db.insertInto('login_challenges').values(row).execute();
  }

  /**
   * Stores an email-code challenge unless the account had `max` of them since `since`
   * (ISO); false when it had. The account's row is written first, which holds it locked
   * (PostgreSQL row lock, SQLite write lock) until the count and the insert are done, so
   * parallel sign-ins of one account are counted one after another.
   */
  async insertWithinLimit(row: ChallengeRow, since: string, max: number): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx
        .updateTable('users')
        .set((eb) => ({ updated_at: eb.ref('updated_at') }))
        .where('id', '=', row.user_id)
        .execute();
      const sent = await trx
        .selectFrom('login_challenges')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('user_id', '=', row.user_id)
        .where('method', '=', row.method)
        .where('created_at', '>=', since)
        .executeTakeFirstOrThrow();
      if (Number(sent.n) >= max) return false;
      await trx.insertInto('login_challenges').values(row).execute();
      return true;
    });
  }

  find(id: string): Promise<ChallengeRow | undefined> {
    return this.db.selectFrom('login_challenges').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /**
   * Takes one of the challenge's code attempts before the code is checked: one conditional
   * `UPDATE … RETURNING`, so parallel attempts (on any process) take at most `max` in all.
   * False when the challenge is used, expired or has no attempt left.
   */
  async takeAttempt(id: string, max: number, now: string): Promise<boolean> {
    const row = await this.db
      .updateTable('login_challenges')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .where('attempts', '<', max)
      .returning('attempts')
      .executeTakeFirst();
    return row !== undefined;
  }

  /** Uses the challenge up; false when it was used already (a replay or a race). */
  async consume(id: string, now: string): Promise<boolean> {
    const result = await this.db.updateTable('login_challenges').set({ used_at: now }).where('id', '=', id).where('used_at', 'is', null).executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async purgeBefore(before: string): Promise<void> {
    await this.db.deleteFrom('login_challenges').where('expires_at', '<', before).execute();
  }
}
