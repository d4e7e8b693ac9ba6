import { messageResponseSchema, syncListSchema, syncRequestSchema, syncSchema, volumeListSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { SyncService } from './sync.service.js';

const category = 'storage';
const policies = {
  volume: { category, name: 'storage_volume', description: 'Volume table: every root folder with its limit and usage', level: 2 },
  syncs: { category, name: 'storage_sync_list', description: 'Recent moves and copies between the server and cloud backends', level: 2 },
  sync: { category, name: 'storage_sync', description: 'Move or copy a root folder to the other backend as a background task', level: 2 },
  cancel: { category, name: 'sync_cancel', description: 'Cancel a running sync', level: 2 },
} satisfies Record<string, RoutePolicy>;

export async function storageRoutes(app: FastifyInstance, { syncs }: { syncs: SyncService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get('/api/storage/volume', { config: { policy: policies.volume }, schema: { tags, response: { 200: volumeListSchema } } }, () => syncs.volumes());

  r.get('/api/storage/sync', { config: { policy: policies.syncs }, schema: { tags, response: { 200: syncListSchema } } }, () => syncs.list());

  r.post('/api/storage/sync', { config: { policy: policies.sync }, schema: { tags, body: syncRequestSchema, response: { 200: syncSchema } } }, (request) =>
    syncs.start(request.user!, request.body, request.ip),
  );

  r.post(
    '/api/sync/cancel/:id',
    {
      config: { policy: policies.cancel },
      schema: { tags: ['task'], params: z.object({ id: z.string().min(1).max(64) }), response: { 200: messageResponseSchema } },
    },
    async (request) => {
      await syncs.cancel(request.user!, request.params.id, request.ip);
      return { success: true, message: 'request_success_message' };
    },
  );
}
