import { restoreCreateSchema, restoreListQuerySchema, restoreListSchema, restoreSchema, snapshotIdParamsSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { JobsRepo } from './jobs.repo.js';
import type { RestoreRunner } from './restore-runner.js';
import { toRestore } from './snapshots.presenter.js';

const category = 'restore';
const policies = {
  start: { category, name: 'restore_start', description: 'Restore items of a snapshot to their place or another folder', level: 2 },
  list: { category, name: 'restore_list', description: 'Restores with status and sizes', level: 2 },
  retry: { category, name: 'restore_retry', description: 'Run a stopped or failed restore again', level: 2 },
} satisfies Record<string, RoutePolicy>;

export async function restoreRoutes(app: FastifyInstance, { restores, jobs }: { restores: RestoreRunner; jobs: JobsRepo }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.post(
    '/api/restore',
    { config: { policy: policies.start }, schema: { tags, body: restoreCreateSchema, response: { 202: restoreSchema } } },
    async (request, reply) => reply.code(202).send(toRestore(await restores.start(request.user!, request.body))),
  );

  r.get(
    '/api/restore',
    { config: { policy: policies.list }, schema: { tags, querystring: restoreListQuerySchema, response: { 200: restoreListSchema } } },
    async (request) => {
      const { rows, total } = await jobs.listRestores(request.query.skip, request.query.limit);
      return { items: rows.map(toRestore), total };
    },
  );

  r.post(
    '/api/restore/:id/retry',
    { config: { policy: policies.retry }, schema: { tags, params: snapshotIdParamsSchema, response: { 202: restoreSchema } } },
    async (request, reply) => reply.code(202).send(toRestore(await restores.retry(request.user!, request.params.id))),
  );
}
