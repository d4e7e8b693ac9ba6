import { randomBytes } from 'node:crypto';
import { type AllowedHosts, type OutgoingWebhook, type WebhookDelivery, type WebhookEvent, WEBHOOK_EVENTS } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { UserRow } from '../users/users.repo.js';
import { ATTEMPT_DEADLINE_MS, sendDelivery } from './delivery-sender.js';
import type { WebhookEmitter } from './ports.js';
import { checkTarget, type Resolver, TargetRefusedError } from './target-guard.js';
import { webhookText } from './webhook-text.js';
import type { DeliveryRow, OutgoingWebhookRow, WebhooksRepo } from './webhooks.repo.js';

/** Settings key of the host names allowed although they resolve to private addresses. */
export const ALLOWED_HOSTS_SETTING = 'webhooks.allowed_hosts';

/** Waits before the 2nd, 3rd, … attempt; a delivery fails for good after the last. */
export const DEFAULT_RETRY_DELAYS_MS = [10_000, 60_000, 5 * 60_000, 30 * 60_000, 2 * 60 * 60_000];
/** A claimed delivery not finished by then (its process died) is tried again. */
const LEASE_MS = 2 * 60_000;
/** Deliveries sent at once by one process. */
const BATCH = 10;
/** Even with nothing known to be due, look again this often (other processes queue too). */
const POLL_MS = 15_000;

const refused = () => new AppError(400, 'webhook_target_refused');

export function toOutgoingWebhook(row: OutgoingWebhookRow): OutgoingWebhook {
  return {
    _id: row.id,
    title: row.title,
    url: row.url,
    events: (JSON.parse(row.events) as string[]).filter((e): e is WebhookEvent => (WEBHOOK_EVENTS as readonly string[]).includes(e)),
    createdAt: row.created_at,
    userId: row.user_id,
    userEmail: row.user_email,
  };
}

function toDelivery(row: DeliveryRow): WebhookDelivery {
  return {
    _id: row.id,
    event: row.event as WebhookEvent,
    status: row.status as WebhookDelivery['status'],
    attempts: row.attempts,
    responseStatus: row.response_status,
    error: row.error,
    createdAt: row.created_at,
    nextAttemptAt: row.status === 'pending' ? row.next_attempt_at : null,
    deliveredAt: row.delivered_at,
  };
}

/**
 * Outgoing webhooks: subscriptions, the `emit` other modules call, and the background
 * sender. Each event becomes one delivery row per subscribed webhook; the sender signs
 * it (HMAC-SHA-256 with a timestamp), checks the target against private addresses at
 * every attempt, and retries with growing waits; every attempt is in the delivery log.
 */
export class OutgoingWebhooks implements WebhookEmitter {
  /** Waits between attempts (tests shorten them). */
  retryDelaysMs = DEFAULT_RETRY_DELAYS_MS;
  /** Longest attempt to send a delivery (tests shorten it). */
  attemptDeadlineMs = ATTEMPT_DEADLINE_MS;
  /** DNS resolution of targets (tests point names at loopback). */
  resolve: Resolver | undefined;
  private timer: NodeJS.Timeout | undefined;
  private draining: Promise<void> | undefined;
  private again = false;
  private closed = false;

  constructor(
    private readonly repo: WebhooksRepo,
    private readonly settings: SettingsRepo,
    private readonly log: FastifyBaseLogger,
  ) {}

  list(): Promise<OutgoingWebhook[]> {
    return this.repo.outgoing().then((rows) => rows.map(toOutgoingWebhook));
  }

  /** Subscribes a URL; refused (400 `webhook_target_refused`) when it resolves to a private address not allowed by name. */
  async create(user: UserRow, body: { title: string; url: string; events: WebhookEvent[] }): Promise<OutgoingWebhook & { secret: string }> {
    try {
      await checkTarget(body.url, await this.allowedHostSet(), this.resolve);
    } catch (error) {
      if (error instanceof TargetRefusedError) throw refused();
      throw error;
    }
    const row: OutgoingWebhookRow = {
      id: newId(),
      title: body.title,
      url: new URL(body.url).href,
      secret: `whsec_${randomBytes(24).toString('base64url')}`,
      events: JSON.stringify([...new Set(body.events)]),
      user_id: user.id,
      user_email: user.email,
      created_at: new Date().toISOString(),
    };
    await this.repo.insertOutgoing(row);
    return { ...toOutgoingWebhook(row), secret: row.secret };
  }

  async remove(id: string): Promise<OutgoingWebhookRow> {
    const row = await this.repo.outgoingById(id);
    if (!row || !(await this.repo.deleteOutgoing(id))) throw notFound();
    return row;
  }

  async deliveries(id: string): Promise<WebhookDelivery[]> {
    if (!(await this.repo.outgoingById(id))) throw notFound();
    return (await this.repo.deliveriesOf(id)).map(toDelivery);
  }

  async allowedHosts(): Promise<AllowedHosts> {
    return { hosts: (await this.settings.get<string[]>(ALLOWED_HOSTS_SETTING)) ?? [] };
  }

  async setAllowedHosts(hosts: string[]): Promise<AllowedHosts> {
    const unique = [...new Set(hosts.map((h) => h.toLowerCase()))].sort();
    await this.settings.set(ALLOWED_HOSTS_SETTING, unique);
    return { hosts: unique };
  }

  private async allowedHostSet(): Promise<Set<string>> {
    return new Set((await this.allowedHosts()).hosts);
  }

  emit(event: WebhookEvent, payload: Record<string, unknown>, eventId?: string): void {
    void this.enqueue(event, payload, eventId).catch((error: unknown) => this.log.error({ err: error, event }, 'webhook event not queued'));
  }

  /**
   * Queues one delivery per webhook subscribed to `event`; answers how many were new. The
   * event id is the delivery's idempotency key (sent as `Idempotency-Key`); a webhook holds
   * one delivery per event id (a unique index), so queueing the same event again is a no-op.
   * The body holds the machine fields in `data` and, beside them, `text`: the event in Korean.
   */
  async enqueue(event: WebhookEvent, payload: Record<string, unknown>, eventId: string = newId()): Promise<number> {
    const hooks = (await this.repo.outgoing()).filter((row) => toOutgoingWebhook(row).events.includes(event));
    if (hooks.length === 0) return 0;
    const now = new Date().toISOString();
    const text = webhookText(event, payload);
    const rows: DeliveryRow[] = hooks.map((hook) => {
      const id = newId();
      return {
        id,
        webhook_id: hook.id,
        event,
        event_id: eventId,
        payload: JSON.stringify({ id, eventId, event, createdAt: now, text, data: payload }),
        status: 'pending',
        attempts: 0,
        response_status: null,
        error: null,
        next_attempt_at: now,
        created_at: now,
        delivered_at: null,
      };
    });
    const queued = await this.repo.insertDeliveries(rows);
    if (queued > 0) this.kick();
    return queued;
  }

  /** Starts the sender; it wakes when a delivery is queued or due, and polls now and then. */
  start(): void {
    this.schedule(0);
  }

  async close(): Promise<void> {
    this.closed = true;
    if (this.timer) clearTimeout(this.timer);
    await this.draining;
  }

  /** Sends what is due now (in the background). */
  kick(): void {
    if (this.closed) return;
    if (this.draining) {
      this.again = true;
      return;
    }
    this.draining = this.drain()
      .catch((error: unknown) => this.log.error({ err: error }, 'webhook deliveries failed'))
      .finally(async () => {
        this.draining = undefined;
        if (this.again) {
          this.again = false;
          this.kick();
          return;
        }
        await this.scheduleNext();
      });
  }

  private schedule(delayMs: number): void {
    if (this.closed) return;
    if (this.timer) clearTimeout(this.timer);
    this.timer = setTimeout(() => this.kick(), Math.max(0, delayMs));
    this.timer.unref();
  }

  private async scheduleNext(): Promise<void> {
    try {
      const next = await this.repo.nextDue();
      const wait = next ? Date.parse(next) - Date.now() : POLL_MS;
      this.schedule(Math.min(POLL_MS, Math.max(20, wait)));
    } catch {
      this.schedule(POLL_MS);
    }
  }

  private async drain(): Promise<void> {
    for (;;) {
      if (this.closed) return;
      const due = await this.repo.due(new Date().toISOString(), BATCH);
      if (due.length === 0) return;
      const allowed = await this.allowedHostSet();
      await Promise.all(due.map((row) => this.attempt(row, allowed)));
    }
  }

  private async attempt(row: DeliveryRow, allowed: Set<string>): Promise<void> {
    if (!(await this.repo.claim(row, new Date(Date.now() + LEASE_MS).toISOString()))) return;
    const hook = await this.repo.outgoingById(row.webhook_id);
    if (!hook) return;
    const delivery = { id: row.id, eventId: row.event_id, event: row.event, url: hook.url, secret: hook.secret, body: row.payload };
    const outcome = await sendDelivery(delivery, allowed, this.resolve, this.attemptDeadlineMs);
    const attempts = row.attempts + 1;
    const now = new Date();
    if (outcome.ok) {
      await this.repo.finish(row.id, {
        status: 'delivered',
        attempts,
        response_status: outcome.status,
        error: null,
        next_attempt_at: null,
        delivered_at: now.toISOString(),
      });
    } else {
      const wait = this.retryDelaysMs[attempts - 1];
      await this.repo.finish(row.id, {
        status: wait === undefined ? 'failed' : 'pending',
        attempts,
        response_status: outcome.status,
        error: outcome.error,
        next_attempt_at: wait === undefined ? null : new Date(now.getTime() + wait).toISOString(),
      });
      this.log.warn({ webhook: hook.id, delivery: row.id, attempts, error: outcome.error }, 'webhook delivery failed');
    }
    await this.repo.trimLog(hook.id);
  }
}
