import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import { AuditChainRepo } from './audit-chain.repo.js';
import { digestFilePath, writeDailyDigests } from './audit-digests.js';
import { AuditRetention } from './audit-retention.js';
import { AuditRecorder } from './audit.recorder.js';
import { AuditRepo } from './audit.repo.js';
import { auditRoutes } from './audit.routes.js';
import { AuditQueries } from './audit.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The audit trail's recorder: `app.audit.record(entry, trx?)`. */
    audit: AuditRecorder;
  }
}

export interface AuditModuleDeps {
  db: Db;
  settings: SettingsRepo;
  dataDir: string;
}

/**
 * Wires the audit trail: the recorder (decorated as `app.audit`, handed to modules), the
 * activity routes, and the housekeeping of daily digests and retention. The request
 * context (client address, user agent, actor) is opened by `registerAuditContext`.
 */
export async function registerAudit(app: FastifyInstance, deps: AuditModuleDeps) {
  const repo = new AuditRepo(deps.db);
  const recorder = new AuditRecorder(repo, app.log);
  const chain = new AuditChainRepo(deps.db);
  const digestFile = digestFilePath(deps.dataDir);
  const retention = new AuditRetention(deps.settings, chain, recorder, digestFile);
  app.decorate('audit', recorder);
  await app.register(auditRoutes, { queries: new AuditQueries(repo), repo, recorder, retention });
  const housekeeping: HousekeepingTask[] = [
    { name: 'audit retention', run: () => retention.apply().then(() => undefined) },
    { name: 'audit daily digests', run: () => writeDailyDigests(chain, digestFile).then(() => undefined) },
  ];
  return { recorder, repo, chain, retention, digestFile, housekeeping };
}
