import { Readable } from 'node:stream';
import {
  auditExportDownloadQuerySchema,
  auditExportQuerySchema,
  auditExportTicketSchema,
  auditListSchema,
  auditNodeParamsSchema,
  auditNodeQuerySchema,
  auditPeopleQuerySchema,
  auditPeopleSchema,
  auditQuerySchema,
  auditSettingsSchema,
} from '@bogwan/contracts';
import type { FastifyInstance, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { auditExportChunks, auditExportFileName } from './audit-export.js';
import type { AuditExportTicketClaims, AuditExportTickets } from './audit-export-tickets.js';
import type { AuditRetention } from './audit-retention.js';
import type { AuditRecorder } from './audit.recorder.js';
import type { AuditRepo } from './audit.repo.js';
import type { AuditQueries } from './audit.service.js';

const policies = {
  list: { category: 'event', name: 'event_list', description: 'The activity log: one\u2019s own; administrators anyone\u2019s', level: 1 },
  people: {
    category: 'event',
    name: 'event_people',
    description: 'Accounts to filter the activity log by (administrators: anyone; others: themselves)',
    level: 1,
  },
  node: {
    category: 'event',
    name: 'event_node',
    description: 'The history of one file or folder (administrators: everyone\u2019s; others: their own)',
    level: 1,
  },
  export: {
    category: 'event',
    name: 'event_export',
    description: 'Export the filtered activity log as CSV or JSON lines (with the bearer token, or a single-use export ticket)',
    level: 1,
    authentication: 'audit-export-ticket',
  },
  exportTicket: {
    category: 'event',
    name: 'event_export_ticket',
    description: 'A single-use address (one minute) for the browser to download an export from',
    level: 1,
  },
  settings: { category: 'setting', name: 'audit_setting', description: 'How long the audit trail is kept', level: 2 },
  settingsUpdate: { category: 'setting', name: 'audit_setting_update', description: 'Set how long the audit trail is kept (years, at least 1)', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface AuditRoutesDeps {
  queries: AuditQueries;
  repo: AuditRepo;
  recorder: AuditRecorder;
  retention: AuditRetention;
  exportTickets: AuditExportTickets;
  /** The claims of the export ticket that authenticated this request, if one did. */
  ticketOf: (request: FastifyRequest) => AuditExportTicketClaims | undefined;
}

/** The activity log (`/api/event`, the spec's call extended), its export, per-file history and the retention setting. */
export async function auditRoutes(app: FastifyInstance, { queries, repo, recorder, retention, exportTickets, ticketOf }: AuditRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/event',
    { config: { policy: policies.list }, schema: { tags: ['event'], querystring: auditQuerySchema, response: { 200: auditListSchema } } },
    async (request) => {
      const { before, skip, limit, ...filter } = request.query;
      return queries.list(queries.visibleFilter(request.user!, filter), { before, skip, limit });
    },
  );

  r.get(
    '/api/event/people',
    { config: { policy: policies.people }, schema: { tags: ['event'], querystring: auditPeopleQuerySchema, response: { 200: auditPeopleSchema } } },
    async (request) => ({ items: await queries.people(request.user!, request.query.q) }),
  );

  r.get(
    '/api/event/node/:nodeId',
    {
      config: { policy: policies.node },
      schema: { tags: ['event'], params: auditNodeParamsSchema, querystring: auditNodeQuerySchema, response: { 200: auditListSchema } },
    },
    async (request) => {
      const filter = queries.visibleFilter(request.user!, { node: request.params.nodeId });
      return queries.list(filter, { before: request.query.before, limit: request.query.limit });
    },
  );

  r.post(
    '/api/event/export/ticket',
    {
      config: { policy: policies.exportTicket },
      schema: { tags: ['event'], querystring: auditExportQuerySchema, response: { 200: auditExportTicketSchema } },
    },
    async (request, reply) => {
      const { format: _format, lang: _lang, ...wanted } = request.query;
      // Refused now (403) rather than when the browser follows the address.
      queries.visibleFilter(request.user!, wanted);
      reply.header('cache-control', 'no-store');
      const ticket = exportTickets.issue({ accountId: request.user!.id, query: request.query });
      return { url: `/api/event/export?${new URLSearchParams({ ticket })}` };
    },
  );

  r.get(
    '/api/event/export',
    { config: { policy: policies.export }, schema: { tags: ['event'], querystring: auditExportDownloadQuerySchema } },
    async (request, reply) => {
      // A ticket carries its own query: parameters added to its address change nothing.
      const { ticket: _ticket, ...asked } = request.query;
      const { format, lang, ...wanted } = ticketOf(request)?.query ?? asked;
      // Narrowed by what the account may see now (a ticket's account demoted meanwhile sees its own).
      const filter = queries.visibleFilter(request.user!, wanted);
      await recorder.record({
        action: 'audit.export',
        target: { kind: 'audit', path: filter.path ?? null },
        params: {
          format,
          actor: filter.actorAccountId ?? null,
          actions: filter.actions?.join(',') ?? null,
          outcome: filter.outcome ?? null,
          from: filter.from ?? null,
          to: filter.to ?? null,
        },
      });
      reply
        .header('content-type', format === 'csv' ? 'text/csv; charset=utf-8' : 'application/x-ndjson; charset=utf-8')
        .header('content-disposition', `attachment; filename="${auditExportFileName(format)}"`)
        .header('cache-control', 'no-store');
      return reply.send(Readable.from(auditExportChunks(repo, filter, format, lang), { highWaterMark: 1 }));
    },
  );

  r.get('/api/setting/audit', { config: { policy: policies.settings }, schema: { tags: ['setting'], response: { 200: auditSettingsSchema } } }, async () => ({
    retentionYears: await retention.years(),
  }));

  r.put(
    '/api/setting/audit',
    {
      config: { policy: policies.settingsUpdate },
      schema: { tags: ['setting'], body: auditSettingsSchema, response: { 200: auditSettingsSchema } },
    },
    async (request) => {
      const before = await retention.years();
      const after = request.body.retentionYears;
      await retention.setYears(after);
      await recorder.record({
        action: 'audit.retention_change',
        target: { kind: 'setting', id: 'audit.retention_years' },
        params: { from: before, to: after },
      });
      return { retentionYears: after };
    },
  );
}
