import type { Db } from '../../db/index.js';
import { newId } from '../../ids.js';

export type ReservationKind = 'share' | 'request';

/**
 * Download counting against a limit. A download takes one use before its first byte with
 * a conditional UPDATE (atomic on both dialects: concurrent takers of the last use see one
 * success), and a reservation row records it; when the answer ends the use is kept as a
 * completed download or given back. The only place that moves these counters.
 */
export class ReservationsRepo {
  constructor(private readonly db: Db) {}

  /** Takes a use of an APPROVED request still valid at `now`; the reservation id, or null when none is left. */
  async reserveRequest(requestId: string, now: string): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('requests')
        .set((eb) => ({ downloads_used: eb('downloads_used', '+', 1) }))
        .where('id', '=', requestId)
        .where('status', '=', 'APPROVED')
        .where('expires_at', '>', now)
        .whereRef('downloads_used', '<', 'download_limit')
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return null;
      const id = newId();
      await trx.insertInto('download_reservations').values({ id, kind: 'request', target_id: requestId, created_at: now }).execute();
      return id;
    });
  }

  /** Takes a use of a share link (any number when it has no limit); null when the limit is reached. */
  async reserveShare(shareId: string, now: string): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const taken = await trx
        .updateTable('shares')
        .set((eb) => ({ downloads_used: eb('downloads_used', '+', 1) }))
        .where('id', '=', shareId)
        .where((eb) => eb.or([eb('download_limit', 'is', null), eb('downloads_used', '<', eb.ref('download_limit'))]))
        .executeTakeFirst();
      if (Number(taken.numUpdatedRows) !== 1) return null;
      const id = newId();
      await trx.insertInto('download_reservations').values({ id, kind: 'share', target_id: shareId, created_at: now }).execute();
      return id;
    });
  }

  /** Ends a reservation: a completed download is counted, any other gives its use back. Once only. */
  async settle(reservationId: string, completed: boolean): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const row = await trx.deleteFrom('download_reservations').where('id', '=', reservationId).returning(['kind', 'target_id']).executeTakeFirst();
      if (!row) return;
      const table = row.kind === 'share' ? 'shares' : 'requests';
      if (completed) {
        await trx
          .updateTable(table)
          .set((eb) => ({ downloads_done: eb('downloads_done', '+', 1) }))
          .where('id', '=', row.target_id)
          .execute();
      } else {
        await trx
          .updateTable(table)
          .set((eb) => ({ downloads_used: eb('downloads_used', '-', 1) }))
          .where('id', '=', row.target_id)
          .execute();
      }
    });
  }

  /** Gives back the uses of reservations made before `before` whose process never settled them. */
  async releaseStale(before: string): Promise<number> {
    const stale = await this.db.selectFrom('download_reservations').select('id').where('created_at', '<', before).execute();
    for (const row of stale) await this.settle(row.id, false);
    return stale.length;
  }
}
