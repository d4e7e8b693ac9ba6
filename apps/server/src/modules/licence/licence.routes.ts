import { licenceCheckSchema, licenceSchema, licenceUpdateRequestSchema, licenceUpdateResponseSchema } from '@bogwan/contracts';
import { createHash } from 'node:crypto';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { type AuthorizeDeps, authenticate } from '../../http/authorize.js';
import { AppError } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { LicenceService } from './licence.service.js';

const category = 'system';
const policies = {
  check: {
    category,
    name: 'license_check',
    description: 'Whether a licence key is needed now, and the server id a key must name',
    level: 0,
    licenceExempt: true,
  },
  // Public in the policy so its 403 `license_required` reaches the sign-in page too; the
  // fields themselves need an administrator (LicenceService.read).
  read: { category, name: 'license', description: 'The licence (administrators); 403 license_required while a key is needed', level: 0, licenceExempt: true },
  update: { category, name: 'license_update', description: 'Save a licence key', level: 2, licenceExempt: true },
} satisfies Record<string, RoutePolicy>;

export interface LicenceRoutesDeps extends AuthorizeDeps {
  licence: LicenceService;
  /** Applied and refused keys are recorded (a key is named by a digest, never kept). */
  audit: AuditRecorder;
}

export async function licenceRoutes(app: FastifyInstance, { licence, audit, ...auth }: LicenceRoutesDeps): Promise<void> {
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
      const keyDigest = createHash('sha256').update(request.body.key.replace(/\s+/g, '')).digest('hex').slice(0, 16);
      const target = { kind: 'licence' as const, id: keyDigest };
      let saved;
      let answer;
      try {
        ({ licence: saved, ...answer } = await licence.save(request.body.key));
      } catch (error) {
        if (error instanceof AppError)
          await audit.record({ action: 'licence.refused', outcome: 'refused', reason: error.messageKey, target, params: { keyDigest } });
        throw error;
      }
      await audit.record({
        action: 'licence.apply',
        target: { ...target, label: saved.org },
        params: { keyDigest, org: saved.org, sen: saved.sen, seats: saved.user, maintenance: saved.maintenance },
      });
      request.log.info({ userId: request.user!.id, org: saved.org, sen: saved.sen, maintenance: saved.maintenance }, 'licence key saved');
      return answer;
    },
  );
}
