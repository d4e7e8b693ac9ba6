import type { Selectable } from 'kysely';
import type { Db } from '../../db/index.js';
import type { IncomingWebhooksTable, OutgoingWebhooksTable, WebhookDeliveriesTable } from '../../db/schema.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import { isUniqueViolation } from '../auth/setup.repo.js';

export type IncomingWebhookRow = Selectable<IncomingWebhooksTable>;
export type OutgoingWebhookRow = Selectable<OutgoingWebhooksTable>;
export type DeliveryRow = Selectable<WebhookDeliveriesTable>;

/** How many deliveries the log keeps per webhook; older finished ones go. */
const DELIVERY_LOG_KEEP = 200;

/**
 * SQL of incoming and outgoing webhooks and the delivery log. An outgoing webhook's
 * signing secret is stored sealed with the server secret (deliveries need it back):
 * sealed on the way in, opened on the way out.
 */
export class WebhooksRepo {
  constructor(
    private readonly db: Db,
    private readonly box: SecretBox,
  ) {}

  private opened = (row: OutgoingWebhookRow): OutgoingWebhookRow => ({ ...row, secret: this.box.open('webhook-secret', row.secret, row.id) });

  incoming(): Promise<IncomingWebhookRow[]> {
    return this.db.selectFrom('incoming_webhooks').selectAll().orderBy('created_at', 'desc').execute();
  }

  incomingByToken(token: string): Promise<IncomingWebhookRow | undefined> {
    return this.db.selectFrom('incoming_webhooks').selectAll().where('token', '=', token).executeTakeFirst();
  }

  /** Inserts an incoming webhook; false when its token is taken. */
  async insertIncoming(row: IncomingWebhookRow): Promise<boolean> {
    try {
      await this.db.insertInto('incoming_webhooks').values(row).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  async deleteIncoming(id: string): Promise<IncomingWebhookRow | undefined> {
    const row = await this.db.selectFrom('incoming_webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    if (row) await this.db.deleteFrom('incoming_webhooks').where('id', '=', id).execute();
    return row;
  }

  async outgoing(): Promise<OutgoingWebhookRow[]> {
    const rows = await this.db.selectFrom('outgoing_webhooks').selectAll().orderBy('created_at', 'desc').execute();
    return rows.map(this.opened);
  }

  async outgoingById(id: string): Promise<OutgoingWebhookRow | undefined> {
    const row = await this.db.selectFrom('outgoing_webhooks').selectAll().where('id', '=', id).executeTakeFirst();
    return row && this.opened(row);
  }

  async insertOutgoing(row: OutgoingWebhookRow): Promise<void> {
    await this.db
      .insertInto('outgoing_webhooks')
      .values({ ...row, secret: this.box.seal('webhook-secret', row.secret, row.id) })
      .execute();
  }

  /** Deletes an outgoing webhook and its delivery log. */
  async deleteOutgoing(id: string): Promise<boolean> {
    return this.db.transaction().execute(async (trx) => {
      await trx.deleteFrom('webhook_deliveries').where('webhook_id', '=', id).execute();
      const result = await trx.deleteFrom('outgoing_webhooks').where('id', '=', id).executeTakeFirst();
      return Number(result.numDeletedRows) === 1;
    });
  }

  /** Inserts deliveries, skipping any whose webhook already has one for the same event; answers how many are new. */
  async insertDeliveries(rows: DeliveryRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    const result = await this.db
      .insertInto('webhook_deliveries')
      .values(rows)
      .onConflict((oc) => oc.columns(['webhook_id', 'event_id']).doNothing())
      .executeTakeFirst();
    return Number(result.numInsertedOrUpdatedRows ?? 0);
  }

  deliveriesOf(webhookId: string, limit = 100): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .orderBy('id', 'desc')
      .limit(limit)
      .execute();
  }

  /** Pending deliveries due by `now`, oldest first. */
  due(now: string, limit: number): Promise<DeliveryRow[]> {
    return this.db
      .selectFrom('webhook_deliveries')
      .selectAll()
      .where('status', '=', 'pending')
      .where('next_attempt_at', '<=', now)
      .orderBy('next_attempt_at')
      .limit(limit)
      .execute();
  }

  /** When the next pending delivery is due, or undefined when none waits. */
  async nextDue(): Promise<string | undefined> {
    const row = await this.db
      .selectFrom('webhook_deliveries')
      .select('next_attempt_at')
      .where('status', '=', 'pending')
      .orderBy('next_attempt_at')
      .limit(1)
      .executeTakeFirst();
    return row?.next_attempt_at ?? undefined;
  }

  /**
   * Takes a due delivery for sending by moving its next attempt to `leaseUntil`; only one
   * process wins (the row must still be due as it was read).
   */
  async claim(row: DeliveryRow, leaseUntil: string): Promise<boolean> {
    const result = await this.db
      .updateTable('webhook_deliveries')
      .set({ next_attempt_at: leaseUntil })
      .where('id', '=', row.id)
      .where('status', '=', 'pending')
      .where('next_attempt_at', '=', row.next_attempt_at)
      .executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  async finish(
    id: string,
    change: Partial<Pick<DeliveryRow, 'status' | 'attempts' | 'response_status' | 'error' | 'next_attempt_at' | 'delivered_at'>>,
  ): Promise<void> {
    await this.db.updateTable('webhook_deliveries').set(change).where('id', '=', id).execute();
  }

  /** Keeps the newest deliveries of each webhook; older finished ones go. */
  async trimLog(webhookId: string): Promise<void> {
    const cutoff = await this.db
      .selectFrom('webhook_deliveries')
      .select('created_at')
      .where('webhook_id', '=', webhookId)
      .orderBy('created_at', 'desc')
      .offset(DELIVERY_LOG_KEEP)
      .limit(1)
      .executeTakeFirst();
    if (!cutoff) return;
    await this.db
      .deleteFrom('webhook_deliveries')
      .where('webhook_id', '=', webhookId)
      .where('status', '<>', 'pending')
      .where('created_at', '<=', cutoff.created_at)
      .execute();
  }
}
