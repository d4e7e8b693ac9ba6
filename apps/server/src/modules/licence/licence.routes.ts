import { licenceCheckSchema, licenceSchema, licenceUpdateRequestSchema, licenceUpdateResponseSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AuthorizeDeps, authenticate } from '../../http/authorize.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { LicenceService } from './licence.service.js';

const category = 'system';
const policies = {
  check: { category, name: 'license_check', description: 'Whether a licence key is needed now, and the server id a key must name', level: 0, licenceExempt: true },
  // Public in the policy so its 403 `license_required` reaches the sign-in page too; the
  // fields themselves need an administrator (LicenceService.read).
  read: { category, name: 'license', description: 'The licence (administrators); 403 license_required while a key is needed', level: 0, licenceExempt: true },
  update: { category, name: 'license_update', description: 'Save a licence key', level: 2, licenceExempt: true },
} satisfies Record<string, RoutePolicy>;

export interface LicenceRoutesDeps extends AuthorizeDeps {
  licence: LicenceService;
}

export async function licenceRoutes(app: FastifyInstance, { licence, ...auth }: LicenceRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/system/license/check',
    { config: { policy: policies.check }, schema: { tags: [category], response: { 200: licenceCheckSchema } } },
    async (_request, reply) => {
      reply.header('cache-control', 'no-store');
      return licence.check();
    },
  );

  r.get(
    '/api/system/license',
    { config: { policy: policies.read }, schema: { tags: [category], response: { 200: licenceSchema } } },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return licence.read((await authenticate(request, auth))?.user ?? null);
    },
  );

  r.put(
    '/api/system/license',
    {
      config: { policy: policies.update },
      schema: { tags: [category], body: licenceUpdateRequestSchema, response: { 200: licenceUpdateResponseSchema } },
    },
    async (request) => {
      const { licence: saved, ...answer } = await licence.save(request.body.key);
      request.log.info({ userId: request.user!.id, org: saved.org, sen: saved.sen, maintenance: saved.maintenance }, 'licence key saved');
      return answer;
    },
  );
}
