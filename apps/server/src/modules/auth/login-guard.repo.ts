import type { Db } from '../../db/index.js';

/** SQL for sign-in failure counting: per account (lockout) and per client address (throttle). */
export class LoginGuardRepo {
  constructor(private readonly db: Db) {}

  /** Adds a failure; answers the new count. */
  async addAccountFailure(userId: string): Promise<number> {
    await this.db
      .updateTable('users')
      .set((eb) => ({ failed_logins: eb('failed_logins', '+', 1) }))
      .where('id', '=', userId)
      .execute();
    const row = await this.db.selectFrom('users').select('failed_logins').where('id', '=', userId).executeTakeFirst();
    return row?.failed_logins ?? 0;
  }

  async lockAccount(userId: string, until: string): Promise<void> {
    await this.db.updateTable('users').set({ locked_until: until, failed_logins: 0 }).where('id', '=', userId).execute();
  }

  async clearAccount(userId: string): Promise<void> {
    await this.db.updateTable('users').set({ locked_until: null, failed_logins: 0 }).where('id', '=', userId).execute();
  }

  async ipFailures(ip: string): Promise<{ failures: number; window_start: string } | undefined> {
    return this.db.selectFrom('login_throttle').select(['failures', 'window_start']).where('ip', '=', ip).executeTakeFirst();
  }

  /** Counts a failure for the address, starting a new window when the old one is over. */
  async addIpFailure(ip: string, now: string, windowStartedBefore: string): Promise<void> {
    await this.db
      .insertInto('login_throttle')
      .values({ ip, failures: 1, window_start: now })
      .onConflict((oc) =>
        oc.column('ip').doUpdateSet((eb) => ({
          failures: eb
            .case()
            .when('login_throttle.window_start', '<', windowStartedBefore)
            .then(1)
            .else(eb('login_throttle.failures', '+', 1))
            .end(),
          window_start: eb
            .case()
            .when('login_throttle.window_start', '<', windowStartedBefore)
            .then(now)
            .else(eb.ref('login_throttle.window_start'))
            .end(),
        })),
      )
      .execute();
  }
}
