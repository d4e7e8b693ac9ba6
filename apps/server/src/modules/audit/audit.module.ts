import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { Db } from '../../db/index.js';
import { authenticate, type AuthorizeDeps } from '../../http/authorize.js';
import { requireDecorators } from '../../http/wiring.js';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import { SpentTicketsRepo } from '../shares/spent-tickets.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import { AuditChainRepo } from './audit-chain.repo.js';
import { digestFilePath, writeDailyDigests } from './audit-digests.js';
import { type AuditExportTicketClaims, AuditExportTickets } from './audit-export-tickets.js';
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
  /** Export tickets are signed with a key derived from it. */
  serverSecret: string;
  /** The bearer check, for the export route when no ticket is given. */
  authorize: AuthorizeDeps;
  users: UsersRepo;
}

/**
 * Wires the audit trail: the recorder (decorated as `app.audit`, handed to modules), the
 * activity routes, and the housekeeping of daily digests and retention. The request
 * context (client address, user agent, actor) is opened by `registerAuditContext`.
 */
export async function registerAudit(app: FastifyInstance, deps: AuditModuleDeps) {
  requireDecorators(app, 'audit', ['addAuthenticator']);
  const repo = new AuditRepo(deps.db);
  const recorder = new AuditRecorder(repo, app.log);
  const chain = new AuditChainRepo(deps.db);
  const digestFile = digestFilePath(deps.dataDir);
  const retention = new AuditRetention(deps.settings, chain, recorder, digestFile);
  app.decorate('audit', recorder);
  // The export route admits a single-use ticket in its query (the browser's download
  // manager cannot send the bearer token); without one, the bearer token as everywhere.
  const exportTickets = new AuditExportTickets(deps.serverSecret, new SpentTicketsRepo(deps.db));
  const spentBy = new WeakMap<FastifyRequest, AuditExportTicketClaims>();
  app.addAuthenticator('audit-export-ticket', async (request) => {
    const ticket = (request.query as { ticket?: unknown } | undefined)?.ticket;
    if (ticket === undefined) return (await authenticate(request, deps.authorize))?.user ?? null;
    if (typeof ticket !== 'string') return null;
    const claims = await exportTickets.spend(ticket);
    const user = claims ? await deps.users.findById(claims.accountId) : undefined;
    if (!claims || !user) return null;
    spentBy.set(request, claims);
    return user;
  });
  await app.register(auditRoutes, { queries: new AuditQueries(repo), repo, recorder, retention, exportTickets, ticketOf: (request) => spentBy.get(request) });
  const housekeeping: HousekeepingTask[] = [
    { name: 'audit retention', run: () => retention.apply().then(() => undefined) },
    { name: 'audit daily digests', run: () => writeDailyDigests(chain, digestFile).then(() => undefined) },
  ];
  return { recorder, repo, chain, retention, digestFile, housekeeping };
}
