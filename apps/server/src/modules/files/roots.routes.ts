import { dashboardVolumeSchema, rootFolderSchema, rootUsageSchema, rootVolumeRequestSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from './files.routes.js';
import type { RootsService } from './roots.service.js';

const category = 'file';
const policies = {
  list: { category, name: 'root_list', description: 'The root folders the user may read', level: 1 },
  usage: { category, name: 'root_usage', description: 'Usage and volume limit per root folder', level: 1 },
  volume: { category, name: 'root_volume', description: 'Set or remove a root folder\u2019s volume limit', level: 2 },
  dashboard: { category: 'dashboard', name: 'dashboard_volume', description: 'Usage and volume per storage backend', level: 2 },
} satisfies Record<string, RoutePolicy>;

export async function rootRoutes(app: FastifyInstance, { roots }: { roots: RootsService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get('/api/file/root', { config: { policy: policies.list }, schema: { tags, response: { 200: rootFolderSchema.array() } } }, (request) =>
    roots.list(request.user!),
  );

  r.get('/api/file/root/usage', { config: { policy: policies.usage }, schema: { tags, response: { 200: rootUsageSchema } } }, (request) =>
    roots.usage(request.user!),
  );

  r.put(
    '/api/file/root/volume',
    { config: { policy: policies.volume }, schema: { tags, body: rootVolumeRequestSchema, response: { 200: rootFolderSchema } } },
    (request) => roots.setVolume(callerOf(request), request.body.path, request.body.volume),
  );

  r.get('/api/dashboard/volume', { config: { policy: policies.dashboard }, schema: { tags: ['dashboard'], response: { 200: dashboardVolumeSchema } } }, () =>
    roots.dashboard(),
  );
}
