import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../ids.js';
import { accountActor } from '../audit/audit-context.js';
import { type AuditEntry, AuditRecorder } from '../audit/audit.recorder.js';
import type { Transaction } from 'kysely';
import type { Database } from '../../db/schema.js';
import type { EventsRepo } from './events.repo.js';

export interface ActivityEvent {
  /** The module that acted: auth, file, share, … */
  service: string;
  /** What happened, in words an administrator reads. */
  message: string;
  userId?: string | null;
  ip?: string | null;
}

/**
 * @deprecated Record through the audit trail instead: `AuditRecorder.record({ action,
 * target, params, … }, trx?)` (modules/audit/audit.recorder.ts, also `app.audit`).
 * Until every caller has moved, `record` writes a `legacy` audit record (service and
 * message in its params; actor and client from the request's audit context, the given
 * user and address first) and the old `events` row. A failure is logged, never thrown.
 * An entry of the new shape (`{ action, … }`) is handed to the recorder unchanged.
 */
export class EventsService {
  private readonly audit: AuditRecorder;

  constructor(
    private readonly repo: EventsRepo,
    private readonly log: FastifyBaseLogger,
  ) {
    this.audit = new AuditRecorder(repo, log);
  }

  /** An audit entry (with `action`) goes to the audit trail as it is; an old-style event as a `legacy` record. */
  async record(event: ActivityEvent | AuditEntry, trx?: Transaction<Database>): Promise<void> {
    if ('action' in event) return this.audit.record(event, trx);
    const message = event.message.slice(0, 2000);
    await this.audit.record({
      action: 'legacy',
      params: { service: event.service, message },
      ...(event.userId ? { actor: accountActor({ id: event.userId }) } : {}),
      ...(event.ip !== undefined ? { ip: event.ip } : {}),
    });
    try {
      await this.repo.insertLegacy({
        id: newId(),
        created_at: new Date().toISOString(),
        service: event.service,
        message,
        user_id: event.userId ?? null,
        ip: event.ip ?? null,
      });
    } catch (error) {
      this.log.error({ err: error, event }, 'activity log write failed');
    }
  }

  /** See AuditRecorder.recordOrThrow. */
  recordOrThrow(entry: AuditEntry): Promise<void> {
    return this.audit.recordOrThrow(entry);
  }
}
