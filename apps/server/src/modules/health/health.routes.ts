import { livenessResponseSchema, readinessResponseSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { checkReadiness, type ReadinessDeps } from './readiness.js';

const category = 'system';
const policies = {
  live: { category, name: 'health_live', description: 'Liveness: the server process answers', level: 0, licenceExempt: true },
  ready: {
    category,
    name: 'health_ready',
    description: 'Readiness: database, migrations, blob store and Redis (when used) answer; 503 names what failed',
    level: 0,
    licenceExempt: true,
  },
} satisfies Record<string, RoutePolicy>;

/** Probes for orchestrators: liveness (restart when it fails) and readiness (send traffic when it passes). */
export async function healthRoutes(app: FastifyInstance, deps: ReadinessDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get('/api/health/live', { config: { policy: policies.live }, schema: { tags, response: { 200: livenessResponseSchema } } }, async (_request, reply) => {
    reply.header('cache-control', 'no-store');
    return { status: 'ok' as const };
  });

  r.get(
    '/api/health/ready',
    { config: { policy: policies.ready }, schema: { tags, response: { 200: readinessResponseSchema, 503: readinessResponseSchema } } },
    async (_request, reply) => {
      const readiness = await checkReadiness(deps);
      reply.header('cache-control', 'no-store');
      return reply.code(readiness.status === 'ok' ? 200 : 503).send(readiness);
    },
  );
}
