import type { Db } from '../../db/index.js';

/** An account's attempt slot: the failures counted with it, and the restriction it set (if the last slot). */
export interface AccountSlot {
  failures: number;
  lockedUntil: string | null;
}

/**
 * SQL for the account lockout. Attempts are counted in `users.failed_logins` before the
 * secret is checked, one conditional `UPDATE … RETURNING` each: PostgreSQL re-reads the
 * row after waiting for its lock and SQLite writes one statement at a time, so parallel
 * attempts each see the count the previous one left.
 */
export class LoginGuardRepo {
  constructor(private readonly db: Db) {}

  /**
   * Takes an attempt slot of an account that is not restricted at `now`: counts it, and the
   * slot that reaches `maxFailures` also restricts the account until `lockUntil` (attempts
   * in flight count, so no further one is admitted while they are checked). A restriction
   * that has ended starts a new count. Undefined when the account is restricted.
   */
  async takeSlot(userId: string, maxFailures: number, now: string, lockUntil: string): Promise<AccountSlot | undefined> {
    const row = await this.db
      .updateTable('users')
      .set((eb) => {
        // The WHERE admits only an unrestricted account; a restriction still set has ended.
        const failures = eb
          .case()
          .when('locked_until', 'is not', null)
          .then(1)
          .else(eb('failed_logins', '+', 1))
          .end();
        return {
          failed_logins: failures,
          locked_until: eb.case().when(failures, '>=', maxFailures).then(lockUntil).else(null).end(),
        };
      })
      .where('id', '=', userId)
      .where((eb) => eb.or([eb('locked_until', 'is', null), eb('locked_until', '<=', now)]))
      .returning(['failed_logins', 'locked_until'])
      .executeTakeFirst();
    return row ? { failures: row.failed_logins, lockedUntil: row.locked_until } : undefined;
  }

  /**
   * Gives back a slot whose secret was right: one failure fewer, and a restriction set by
   * slots in flight ends when the count falls below `maxFailures` again.
   */
  async giveBackSlot(userId: string, maxFailures: number): Promise<void> {
    await this.db
      .updateTable('users')
      .set((eb) => ({
        failed_logins: eb('failed_logins', '-', 1),
        locked_until: eb
          .case()
          .when(eb('failed_logins', '-', 1), '<', maxFailures)
          .then(null)
          .else(eb.ref('locked_until'))
          .end(),
      }))
      .where('id', '=', userId)
      .where('failed_logins', '>', 0)
      .execute();
  }

  async clearAccount(userId: string): Promise<void> {
    await this.db.updateTable('users').set({ locked_until: null, failed_logins: 0 }).where('id', '=', userId).execute();
  }
}
