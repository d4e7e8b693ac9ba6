import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database, RequestItemsTable, RequestsTable } from '../../db/schema.js';

export type RequestRow = Selectable<RequestsTable>;
export type RequestItemRow = Selectable<RequestItemsTable>;

/** How many requests one list answers at most (newest first). */
const LIST_LIMIT = 1000;

/** SQL for approval requests and their items; the only place that touches these tables. */
export class RequestsRepo {
  constructor(private readonly db: Db) {}

  /** Inserts a request with its items; `also` runs last in the same transaction (the audit record). */
  async insert(row: RequestRow, items: RequestItemRow[], also?: (trx: Transaction<Database>) => Promise<void>): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('requests').values(row).execute();
      await trx.insertInto('request_items').values(items).execute();
      await also?.(trx);
    });
  }

  findById(id: string): Promise<RequestRow | undefined> {
    return this.db.selectFrom('requests').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The items of each request, by request id, in the order they were asked for. */
  async items(requestIds: string[]): Promise<Map<string, RequestItemRow[]>> {
    const byRequest = new Map<string, RequestItemRow[]>();
    for (let i = 0; i < requestIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('request_items')
        .selectAll()
        .where('request_id', 'in', requestIds.slice(i, i + 500))
        .orderBy('path')
        .execute();
      for (const row of rows) byRequest.set(row.request_id, [...(byRequest.get(row.request_id) ?? []), row]);
    }
    return byRequest;
  }

  /** A user's own requests, newest first. */
  byRequester(userId: string): Promise<RequestRow[]> {
    return this.db
      .selectFrom('requests')
      .selectAll()
      .where('requester_id', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(LIST_LIMIT)
      .execute();
  }

  /** Requests of others that are PENDING or that `userId` decided, newest first. */
  pendingOrDecidedBy(userId: string): Promise<RequestRow[]> {
    return this.db
      .selectFrom('requests')
      .selectAll()
      .where('requester_id', '!=', userId)
      .where((eb) => eb.or([eb('status', '=', 'PENDING'), eb('approver_id', '=', userId)]))
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(LIST_LIMIT)
      .execute();
  }

  /**
   * Moves a request from one of `from` to a new state, only while it is still in one of
   * them (and, with `validAt`, not yet past its expiry): of concurrent deciders exactly one
   * succeeds. Answers the updated row, or undefined when the condition no longer held.
   */
  async transition(id: string, from: readonly string[], patch: Partial<RequestRow>, validAt?: string): Promise<RequestRow | undefined> {
    let query = this.db
      .updateTable('requests')
      .set(patch)
      .where('id', '=', id)
      .where('status', 'in', [...from]);
    if (validAt) query = query.where('expires_at', '>', validAt);
    const result = await query.executeTakeFirst();
    if (Number(result.numUpdatedRows) !== 1) return undefined;
    return this.findById(id);
  }

  /** Marks EXPIRED every PENDING or APPROVED request past its expiry; answers those this call changed. */
  async expireDue(now: string): Promise<RequestRow[]> {
    const due = await this.db.selectFrom('requests').selectAll().where('status', 'in', ['PENDING', 'APPROVED']).where('expires_at', '<=', now).execute();
    const changed: RequestRow[] = [];
    for (const row of due) {
      const result = await this.db
        .updateTable('requests')
        .set({ status: 'EXPIRED', processed_at: now, updated_at: now })
        .where('id', '=', row.id)
        .where('status', '=', row.status)
        .where('expires_at', '<=', now)
        .executeTakeFirst();
      if (Number(result.numUpdatedRows) === 1) changed.push({ ...row, status: 'EXPIRED', processed_at: now, updated_at: now });
    }
    return changed;
  }

  /**
   * A user's APPROVED requests of a type still valid at `now` and not used up (downloads
   * left; for share requests, no link made yet), soonest to expire first.
   */
  async activeGrants(userId: string, type: 'download' | 'share', now: string): Promise<RequestRow[]> {
    let query = this.db
      .selectFrom('requests')
      .selectAll()
      .where('requester_id', '=', userId)
      .where('type', '=', type)
      .where('status', '=', 'APPROVED')
      .where('expires_at', '>', now);
    query = type === 'download' ? query.whereRef('downloads_used', '<', 'download_limit') : query.where('used_at', 'is', null);
    return query.orderBy('expires_at').execute();
  }

  /**
   * Spends an approved share request on a link; false when it was used or ended meanwhile.
   * `db` is the transaction that inserts the link, so both happen or neither.
   */
  async markUsed(id: string, now: string, db: Db = this.db): Promise<boolean> {
    const result = await db
      .updateTable('requests')
      .set({ used_at: now, updated_at: now })
      .where('id', '=', id)
      .where('status', '=', 'APPROVED')
      .where('used_at', 'is', null)
      .where('expires_at', '>', now)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }
}
