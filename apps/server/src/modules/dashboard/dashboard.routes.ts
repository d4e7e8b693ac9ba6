import { dashboardQuerySchema, dashboardSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { DashboardService } from './dashboard.service.js';

const category = 'dashboard';
const policies = {
  overview: {
    category,
    name: 'dashboard',
    description: 'Storage, accounts, transfers of the last 30 days, running tasks, last snapshot and licence',
    level: 2,
  },
} satisfies Record<string, RoutePolicy>;

export async function dashboardRoutes(app: FastifyInstance, { dashboard }: { dashboard: DashboardService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/dashboard',
    { config: { policy: policies.overview }, schema: { tags: [category], querystring: dashboardQuerySchema, response: { 200: dashboardSchema } } },
    (request) => dashboard.overview(request.user!, request.query.tz),
  );
}
