import {
  trashCountResponseSchema,
  trashIdParamsSchema,
  trashListQuerySchema,
  trashListResponseSchema,
  trashRestoreRequestSchema,
  trashRetentionSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from '../files/files.routes.js';
import type { TrashRetentionService } from './trash-retention.js';
import type { TrashService } from './trash.service.js';

const category = 'trash';
const policies = {
  list: { category, name: 'trash_list', description: 'Trashed items: all for administrators, one\u2019s own for users', level: 1 },
  mine: { category, name: 'trash_list_mine', description: 'What the caller trashed (a personal trash, for every role)', level: 1 },
  restore: { category, name: 'trash_restore', description: 'Put trashed items back where they were', level: 1 },
  purge: { category, name: 'trash_delete', description: 'Delete one trashed item permanently', level: 2 },
  empty: { category, name: 'trash_empty', description: 'Empty the trash permanently', level: 2 },
  retention: { category, name: 'trash_retention', description: 'How many days trashed items are kept (off by default)', level: 2 },
  retentionUpdate: { category, name: 'trash_retention_update', description: 'Set or turn off automatic deletion of old trash', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface TrashRoutesDeps {
  trash: TrashService;
  retention: TrashRetentionService;
}

export async function trashRoutes(app: FastifyInstance, { trash, retention }: TrashRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get(
    '/api/trash',
    { config: { policy: policies.list }, schema: { tags, querystring: trashListQuerySchema, response: { 200: trashListResponseSchema } } },
    (request) => trash.list(request.user!, request.query),
  );

  r.get(
    '/api/trash/mine',
    { config: { policy: policies.mine }, schema: { tags, querystring: trashListQuerySchema, response: { 200: trashListResponseSchema } } },
    (request) => trash.list(request.user!, request.query, true),
  );

  r.post(
    '/api/trash/restore',
    { config: { policy: policies.restore }, schema: { tags, body: trashRestoreRequestSchema, response: { 200: trashCountResponseSchema } } },
    async (request) => ({ count: await trash.restore(callerOf(request), request.body.ids) }),
  );

  r.delete(
    '/api/trash/:id',
    { config: { policy: policies.purge }, schema: { tags, params: trashIdParamsSchema, response: { 200: trashCountResponseSchema } } },
    async (request) => {
      await trash.purge(callerOf(request), request.params.id);
      return { count: 1 };
    },
  );

  r.delete('/api/trash', { config: { policy: policies.empty }, schema: { tags, response: { 200: trashCountResponseSchema } } }, async (request) => ({
    count: await trash.purgeAll(callerOf(request)),
  }));

  r.get('/api/trash/retention', { config: { policy: policies.retention }, schema: { tags, response: { 200: trashRetentionSchema } } }, () => retention.get());

  r.put(
    '/api/trash/retention',
    { config: { policy: policies.retentionUpdate }, schema: { tags, body: trashRetentionSchema, response: { 200: trashRetentionSchema } } },
    (request) => retention.set(callerOf(request), request.body),
  );
}
