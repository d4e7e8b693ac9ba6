import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { Db } from '../../db/index.js';
import { providedLater } from '../../http/wiring.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import { incomingCallRoutes } from './incoming-call.routes.js';
import { AttemptCountersRepo } from '../limits/attempt-counters.repo.js';
import { IncomingWebhooks } from './incoming.service.js';
import { OutgoingWebhooks } from './outgoing.service.js';
import { webhookRoutes } from './webhooks.routes.js';
import { WebhooksRepo } from './webhooks.repo.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Outgoing webhooks: `emit(event, payload)` queues signed deliveries to subscribers. */
    webhooks: OutgoingWebhooks;
    /** Incoming webhooks (their rate limits are reachable for tests). */
    incomingWebhooks: IncomingWebhooks;
  }
}

export interface WebhooksModuleDeps {
  config: Config;
  db: Db;
  settings: SettingsRepo;
  users: UsersRepo;
  audit: AuditRecorder;
  /** Seals the outgoing webhooks' signing secrets in the database. */
  secrets: SecretBox;
}

/**
 * Wires incoming and outgoing webhooks and decorates `app.webhooks` (the emitter other
 * modules call). Incoming calls upload through `app.uploads` and check `app.fileAccess`:
 * those modules are registered after this one (they emit through it), so both are
 * declared `providedLater` and the boot fails when either is missing.
 */
export async function registerWebhooks(app: FastifyInstance, deps: WebhooksModuleDeps): Promise<void> {
  const repo = new WebhooksRepo(deps.db, deps.secrets);
  const outgoing = new OutgoingWebhooks(repo, deps.settings, app.log);
  const incoming = new IncomingWebhooks(
    repo,
    deps.users,
    providedLater(app, 'webhooks', 'fileAccess'),
    providedLater(app, 'webhooks', 'uploads'),
    deps.audit,
    path.join(deps.config.dataDir, 'tmp', 'webhooks'),
    new AttemptCountersRepo(deps.db),
  );
  app.decorate('webhooks', outgoing);
  app.decorate('incomingWebhooks', incoming);
  await app.register(webhookRoutes, { incoming, outgoing, audit: deps.audit, publicUrl: deps.config.publicUrl });
  await app.register(incomingCallRoutes, { incoming });
  app.addHook('onReady', async () => outgoing.start());
  app.addHook('onClose', async () => outgoing.close());
}
