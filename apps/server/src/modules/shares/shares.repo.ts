import type { Selectable, Transaction } from 'kysely';
import type { Db } from '../../db/index.js';
import type { Database, ShareRecipientsTable, SharesTable } from '../../db/schema.js';
import type { SecretBox } from '../../crypto/secret-box.js';

export type ShareRow = Selectable<SharesTable>;
/** Work that must commit with a change (its audit record), run last in the change's transaction. */
export type InTransaction = (trx: Transaction<Database>) => Promise<void>;
const noMore: InTransaction = async () => undefined;
export type ShareRecipientRow = Selectable<ShareRecipientsTable>;

/** How many links one list answers at most (newest first). */
const LIST_LIMIT = 1000;

/**
 * SQL for share links and their recipients; the only place that touches these tables.
 * A link's key is stored sealed with the server secret (its owner sees the link again;
 * lookups go by `key_hash`): rows are sealed on the way in and opened on the way out.
 */
export class SharesRepo {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  private sealed(row: ShareRow): ShareRow {
    return { ...row, key: this.box.seal('share-key', row.key, row.id) };
  }

  private opened = (row: ShareRow): ShareRow => ({ ...row, key: this.box.open('share-key', row.key, row.id) });

  /** Inserts a link and its recipients; `also` runs last in the same transaction (the audit record). */
  async insert(row: ShareRow, recipients: ShareRecipientRow[], also: InTransaction = noMore): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.insertInto('shares').values(this.sealed(row)).execute();
      if (recipients.length > 0) await trx.insertInto('share_recipients').values(recipients).execute();
      await also(trx);
    });
  }

  /**
   * Inserts a link made under an approved share request: in the same transaction `spend`
   * marks one request used and answers its id, which the link keeps. When it answers null
   * (none left) nothing is written; when the insert fails the request stays unused.
   */
  async insertSpending(
    row: ShareRow,
    recipients: ShareRecipientRow[],
    spend: (trx: Db) => Promise<string | null>,
    also: InTransaction = noMore,
  ): Promise<string | null> {
    return this.db.transaction().execute(async (trx) => {
      const requestId = await spend(trx);
      if (requestId === null) return null;
      await trx
        .insertInto('shares')
        .values(this.sealed({ ...row, request_id: requestId }))
        .execute();
      if (recipients.length > 0) await trx.insertInto('share_recipients').values(recipients).execute();
      await also(trx);
      return requestId;
    });
  }

  async findById(id: string): Promise<ShareRow | undefined> {
    const row = await this.db.selectFrom('shares').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.opened(row);
  }

  async findByKeyHash(keyHash: string): Promise<ShareRow | undefined> {
    const row = await this.db.selectFrom('shares').selectAll().where('key_hash', '=', keyHash).executeTakeFirst();
    return row && this.opened(row);
  }

  /** Changes a link's rules and replaces its recipients, in one transaction (`also` last, in it). */
  async update(id: string, patch: Partial<ShareRow>, recipients: ShareRecipientRow[], also: InTransaction = noMore): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.updateTable('shares').set(patch).where('id', '=', id).execute();
      await trx.deleteFrom('share_recipients').where('share_id', '=', id).execute();
      if (recipients.length > 0) await trx.insertInto('share_recipients').values(recipients).execute();
      await also(trx);
    });
  }

  /** Deletes a link; `also` runs in the same transaction. */
  async delete(id: string, also: InTransaction = noMore): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('shares').where('id', '=', id).execute();
      await also(trx);
    });
  }

  async byCreator(userId: string): Promise<ShareRow[]> {
    const rows = await this.db
      .selectFrom('shares')
      .selectAll()
      .where('created_by', '=', userId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(LIST_LIMIT)
      .execute();
    return rows.map(this.opened);
  }

  /** Links of scope `specific` naming the user or one of their groups, not expired for good. */
  async sharedWith(userId: string, groupIds: string[]): Promise<ShareRow[]> {
    const rows = await this.db
      .selectFrom('shares')
      .selectAll()
      .where('scope', '=', 'specific')
      .where('expired_at', 'is', null)
      .where('created_by', '!=', userId)
      .where((eb) =>
        eb.exists(
          eb
            .selectFrom('share_recipients')
            .select('share_recipients.share_id')
            .whereRef('share_recipients.share_id', '=', 'shares.id')
            .where((r) =>
              r.or([
                r.and([r('entity_type', '=', 'user'), r('entity_id', '=', userId)]),
                ...(groupIds.length > 0 ? [r.and([r('entity_type', '=', 'group'), r('entity_id', 'in', groupIds)])] : []),
              ]),
            ),
        ),
      )
      .orderBy('created_at', 'desc')
      .limit(LIST_LIMIT)
      .execute();
    return rows.map(this.opened);
  }

  /** The recipients of each link, by link id. */
  async recipients(shareIds: string[]): Promise<Map<string, ShareRecipientRow[]>> {
    const byShare = new Map<string, ShareRecipientRow[]>();
    for (let i = 0; i < shareIds.length; i += 500) {
      const rows = await this.db
        .selectFrom('share_recipients')
        .selectAll()
        .where('share_id', 'in', shareIds.slice(i, i + 500))
        .execute();
      for (const row of rows) byShare.set(row.share_id, [...(byShare.get(row.share_id) ?? []), row]);
    }
    return byShare;
  }

  /** Expires for good every link on one of these nodes; answers how many. */
  async expireForNodes(nodeIds: string[], now: string): Promise<number> {
    let count = 0;
    for (let i = 0; i < nodeIds.length; i += 500) {
      const result = await this.db
        .updateTable('shares')
        .set({ expired_at: now, updated_at: now })
        .where('node_id', 'in', nodeIds.slice(i, i + 500))
        .where('expired_at', 'is', null)
        .executeTakeFirst();
      count += Number(result.numUpdatedRows);
    }
    return count;
  }
}
