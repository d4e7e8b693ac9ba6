import type { Db } from '../../db/index.js';

/** Where used ticket nonces are kept until their tickets expire. */
export interface SpentNonces {
  /** True when `nonce` was not used before, and now is; false when it was. */
  take(nonce: string, expiresAt: number): Promise<boolean>;
}

/**
 * Used ticket nonces in the database: the primary key makes the first use win, also
 * between server processes that share the database.
 */
export class SpentTicketsRepo implements SpentNonces {
  constructor(private readonly db: Db) {}

  async take(nonce: string, expiresAt: number): Promise<boolean> {
    const result = await this.db
      .insertInto('spent_tickets')
      .values({ nonce, expires_at: new Date(expiresAt).toISOString() })
      .onConflict((oc) => oc.column('nonce').doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0) === 1;
  }

  /** Forgets the nonces of tickets expired before `before` (ISO time); answers how many. */
  async purgeExpired(before: string): Promise<number> {
    const result = await this.db.deleteFrom('spent_tickets').where('expires_at', '<', before).executeTakeFirst();
    return Number(result.numDeletedRows);
  }
}

/** Used nonces in this process only (unit tests). */
export class SpentNoncesInMemory implements SpentNonces {
  private readonly spent = new Map<string, number>();

  constructor(private readonly now: () => number = Date.now) {}

  async take(nonce: string, expiresAt: number): Promise<boolean> {
    const now = this.now();
    for (const [old, expiry] of this.spent) if (expiry <= now) this.spent.delete(old);
    if (this.spent.has(nonce)) return false;
    this.spent.set(nonce, expiresAt);
    return true;
  }
}
