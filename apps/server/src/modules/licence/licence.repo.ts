import type { Db } from '../../db/index.js';

/** SQL the licence needs beyond the settings table: the accounts that take a seat. */
export class LicenceRepo {
  constructor(private readonly db: Db) {}

  /** ACTIVE accounts; blocked and pending ones do not hold a seat. */
  async countSeatsUsed(): Promise<number> {
    const row = await this.db
      .selectFrom('users')
      .select((eb) => eb.fn.countAll<number | string>().as('n'))
      .where('status', '=', 'ACTIVE')
      .executeTakeFirstOrThrow();
    return Number(row.n);
  }
}
