import {
  snapshotIdParamsSchema,
  snapshotItemListSchema,
  snapshotItemsQuerySchema,
  snapshotPlanCreateSchema,
  snapshotPlanListSchema,
  snapshotPlanSchema,
  snapshotPlanUpdateSchema,
  snapshotRunListQuerySchema,
  snapshotRunListSchema,
  snapshotRunSchema,
  snapshotScheduleStatusSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { notFound } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { CatalogCache } from './catalog-cache.js';
import type { JobsRepo } from './jobs.repo.js';
import type { PlansService } from './plans.service.js';
import type { SnapshotRunner } from './snapshot-runner.js';
import { toSnapshotRun } from './snapshots.presenter.js';

const category = 'snapshot';
const policies = {
  list: { category, name: 'snapshot_plan_list', description: 'Snapshot plans with their schedules and last run', level: 2 },
  get: { category, name: 'snapshot_plan_get', description: 'One snapshot plan', level: 2 },
  create: { category, name: 'snapshot_plan_create', description: 'Create a snapshot plan and its repository', level: 2 },
  update: { category, name: 'snapshot_plan_update', description: 'Change a snapshot plan and its schedules', level: 2 },
  remove: { category, name: 'snapshot_plan_delete', description: 'Delete a snapshot plan and its history (the repository stays)', level: 2 },
  schedule: { category, name: 'snapshot_schedule_status', description: 'Pause or resume a schedule', level: 2 },
  run: { category, name: 'snapshot_run', description: 'Take a snapshot now', level: 2 },
  runs: { category, name: 'snapshot_run_list', description: 'Snapshot runs with status and sizes', level: 2 },
  items: { category, name: 'snapshot_items', description: 'Browse the files and folders of a snapshot', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface SnapshotRoutesDeps {
  plans: PlansService;
  runner: SnapshotRunner;
  jobs: JobsRepo;
  catalogs: CatalogCache;
}

export async function snapshotRoutes(app: FastifyInstance, { plans, runner, jobs, catalogs }: SnapshotRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];
  const params = snapshotIdParamsSchema;

  r.get('/api/snapshot/plan', { config: { policy: policies.list }, schema: { tags, response: { 200: snapshotPlanListSchema } } }, async () => ({
    items: await plans.list(),
  }));

  r.get('/api/snapshot/plan/:id', { config: { policy: policies.get }, schema: { tags, params, response: { 200: snapshotPlanSchema } } }, (request) =>
    plans.get(request.params.id),
  );

  r.post(
    '/api/snapshot/plan',
    { config: { policy: policies.create }, schema: { tags, body: snapshotPlanCreateSchema, response: { 201: snapshotPlanSchema } } },
    async (request, reply) => reply.code(201).send(await plans.create(request.user!, request.body, request.ip)),
  );

  r.put(
    '/api/snapshot/plan/:id',
    { config: { policy: policies.update }, schema: { tags, params, body: snapshotPlanUpdateSchema, response: { 200: snapshotPlanSchema } } },
    (request) => plans.update(request.user!, request.params.id, request.body, request.ip),
  );

  r.delete('/api/snapshot/plan/:id', { config: { policy: policies.remove }, schema: { tags, params } }, async (request, reply) => {
    await plans.delete(request.user!, request.params.id, request.ip);
    return reply.code(204).send();
  });

  r.put(
    '/api/snapshot/schedule/:id',
    { config: { policy: policies.schedule }, schema: { tags, params, body: snapshotScheduleStatusSchema, response: { 200: snapshotPlanSchema } } },
    (request) => plans.setScheduleStatus(request.user!, request.params.id, request.body.status, request.ip),
  );

  r.post(
    '/api/snapshot/plan/:id/run',
    { config: { policy: policies.run }, schema: { tags, params, response: { 202: snapshotRunSchema } } },
    async (request, reply) => {
      const plan = await plans.find(request.params.id);
      const run = await runner.start(plan, 'manual', request.user!.id);
      const listed = await jobs.findRun(run.id);
      return reply.code(202).send(toSnapshotRun(listed!));
    },
  );

  r.get(
    '/api/snapshot/run',
    { config: { policy: policies.runs }, schema: { tags, querystring: snapshotRunListQuerySchema, response: { 200: snapshotRunListSchema } } },
    async (request) => {
      const { rows, total } = await jobs.listRuns(request.query);
      return { items: rows.map(toSnapshotRun), total };
    },
  );

  r.get(
    '/api/snapshot/run/:id/items',
    { config: { policy: policies.items }, schema: { tags, params, querystring: snapshotItemsQuerySchema, response: { 200: snapshotItemListSchema } } },
    async (request) => {
      const run = await jobs.findRun(request.params.id);
      if (!run) throw notFound();
      const catalog = await catalogs.get(await plans.find(run.plan_id), run);
      const path = request.query.path;
      if (path !== '' && !catalog.get(path)?.folder) throw notFound('folder_not_found');
      return { path, items: catalog.list(path) };
    },
  );
}
