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

  find(id: string): Promise<ChallengeRow | undefined> {
    return this.db.selectFrom('login_challenges').selectAll().where('id', '=', id).executeTakeFirst();
  }

  async countSince(userId: string, method: string, since: string): Promise<number> {
    const row = await this.db
      .selectFrom('login_challenges')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('user_id', '=', userId)
      .where('method', '=', method)
      .where('created_at', '>=', since)
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }

  async addAttempt(id: string): Promise<void> {
    await this.db
      .updateTable('login_challenges')
      .set((eb) => ({ attempts: eb('attempts', '+', 1) }))
      .where('id', '=', id)
      .execute();
  }

  /** Uses the challenge up; false when it was used already (a replay or a race). */
  async consume(id: string, now: string): Promise<boolean> {
    const result = await this.db
      .updateTable('login_challenges')
      .set({ used_at: now })
      .where('id', '=', id)
      .where('used_at', 'is', null)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async purgeBefore(before: string): Promise<void> {
    await this.db.deleteFrom('login_challenges').where('expires_at', '<', before).execute();
  }
}
