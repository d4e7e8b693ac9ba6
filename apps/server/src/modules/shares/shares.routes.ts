import { createShareRequestSchema, okResponseSchema, shareIdParamsSchema, shareLinkSchema, shareListSchema, updateShareRequestSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from '../files/files.routes.js';
import type { SharesService } from './shares.service.js';

const category = 'share';
const policies = {
  create: { category, name: 'share_create', description: 'Create a share link (SHARE; in a secure folder an approved share request)', level: 1 },
  list: { category, name: 'share_list', description: 'Own share links and the items shared with the caller', level: 1 },
  update: { category, name: 'share_update', description: 'Change an own share link', level: 1 },
  revoke: { category, name: 'share_delete', description: 'Revoke a share link (its creator or an administrator)', level: 1 },
} satisfies Record<string, RoutePolicy>;

export async function shareRoutes(app: FastifyInstance, { shares }: { shares: SharesService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.post(
    '/api/share',
    { config: { policy: policies.create }, schema: { tags, body: createShareRequestSchema, response: { 200: shareLinkSchema } } },
    (request) => shares.create(callerOf(request), request.body),
  );

  r.get('/api/share', { config: { policy: policies.list }, schema: { tags, response: { 200: shareListSchema } } }, (request) => shares.list(request.user!));

  r.put(
    '/api/share/:id',
    { config: { policy: policies.update }, schema: { tags, params: shareIdParamsSchema, body: updateShareRequestSchema, response: { 200: shareLinkSchema } } },
    (request) => shares.update(callerOf(request), request.params.id, request.body),
  );

  r.delete(
    '/api/share/:id',
    { config: { policy: policies.revoke }, schema: { tags, params: shareIdParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await shares.revoke(callerOf(request), request.params.id);
      return { success: true };
    },
  );
}
