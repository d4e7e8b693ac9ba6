import {
  ACCESS_LOG_EXPORT_FILE,
  accessLogFilterSchema,
  accessLogPageSchema,
  accessLogQuerySchema,
  type HealthReason,
  healthResponseSchema,
  networkListSchema,
  policyListSchema,
  systemInfoSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PolicyRegistry, RoutePolicy } from '../../http/policy.js';
import type { AccessLogService } from '../access-log/access-log.service.js';
import { networkInterfaces, systemInfo } from './system-info.js';

const category = 'system';
const policies = {
  health: { category, name: 'health', description: 'Whether the database and blob store answer', level: 0, licenceExempt: true },
  policy: { category, name: 'policy', description: 'Every route with the role level it requires', level: 2 },
  info: { category, name: 'system_info', description: 'Host name, platform, uptime, memory and CPU of the server', level: 2 },
  network: { category, name: 'system_network', description: 'The server\u2019s network interfaces and addresses', level: 2 },
  log: { category, name: 'system_log', description: 'The access log of every request, filtered and paged', level: 2 },
  logExport: { category, name: 'system_log_export', description: 'The filtered access log as a CSV file', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface SystemRoutesDeps {
  registry: PolicyRegistry;
  /** Whether the database and the blob store both answer; when not, a reason where one is known. */
  healthy: () => Promise<{ ok: boolean; reason?: HealthReason }>;
  accessLog: AccessLogService;
}

export async function systemRoutes(app: FastifyInstance, deps: SystemRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get(
    '/api/health',
    { config: { policy: policies.health }, schema: { tags, response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
    async (_request, reply) => {
      const { ok, reason } = await deps.healthy();
      reply.header('cache-control', 'no-store');
      return ok ? { status: 'ok' as const } : reply.code(503).send({ status: 'unavailable' as const, ...(reason ? { reason } : {}) });
    },
  );

  r.get('/api/policy', { config: { policy: policies.policy }, schema: { tags, response: { 200: policyListSchema } } }, () => deps.registry.list());

  r.get('/api/system', { config: { policy: policies.info }, schema: { tags, response: { 200: systemInfoSchema } } }, () => systemInfo());

  r.get('/api/system/network', { config: { policy: policies.network }, schema: { tags, response: { 200: networkListSchema } } }, () => networkInterfaces());

  r.get(
    '/api/system/log',
    { config: { policy: policies.log }, schema: { tags, querystring: accessLogQuerySchema, response: { 200: accessLogPageSchema } } },
    async (request) => {
      // Entries still in the write buffer belong on the page too.
      await app.accessLog.flush();
      const { skip, limit, ...filter } = request.query;
      return deps.accessLog.page(filter, skip, limit);
    },
  );

  r.get('/api/system/log/export', { config: { policy: policies.logExport }, schema: { tags, querystring: accessLogFilterSchema } }, async (request, reply) => {
    await app.accessLog.flush();
    return reply
      .header('content-type', 'text/csv; charset=utf-8')
      .header('content-disposition', `attachment; filename="${ACCESS_LOG_EXPORT_FILE}"`)
      .header('cache-control', 'no-store')
      .send(deps.accessLog.exportCsv(request.query));
  });
}
