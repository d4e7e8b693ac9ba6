import { healthResponseSchema, policyListSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { PolicyRegistry, RoutePolicy } from '../../http/policy.js';

const category = 'system';
const policies = {
  health: { category, name: 'health', description: 'Whether the database and blob store answer', level: 0, licenceExempt: true },
  policy: { category, name: 'policy', description: 'Every route with the role level it requires', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface SystemRoutesDeps {
  registry: PolicyRegistry;
  /** True when the database and the blob store both answer. */
  healthy: () => Promise<boolean>;
}

export async function systemRoutes(app: FastifyInstance, deps: SystemRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/health',
    { config: { policy: policies.health }, schema: { tags: [category], response: { 200: healthResponseSchema, 503: healthResponseSchema } } },
    async (_request, reply) => {
      const ok = await deps.healthy();
      reply.header('cache-control', 'no-store');
      return ok ? { status: 'ok' as const } : reply.code(503).send({ status: 'unavailable' as const });
    },
  );

  r.get(
    '/api/policy',
    { config: { policy: policies.policy }, schema: { tags: [category], response: { 200: policyListSchema } } },
    () => deps.registry.list(),
  );
}
