import {
  createResourceRequestSchema,
  resourceIdParamsSchema,
  resourceListSchema,
  resourceQuerySchema,
  resourceSchema,
  settingListSchema,
  updateResourceRequestSchema,
  updateSettingRequestSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from '../files/files.routes.js';
import type { DefaultPermissionsService } from './default-permissions.service.js';
import type { ResourcesService } from './resources.service.js';

const category = 'permission';
const policies = {
  resources: { category, name: 'resource_list', description: 'Folders and files with permissions of their own', level: 2 },
  createResource: { category, name: 'resource_create', description: 'Give a folder or file permissions of its own (SETTING on its path)', level: 2 },
  updateResource: { category, name: 'resource_update', description: 'Change the permission entries of a folder or file (SETTING on its path)', level: 2 },
  deleteResource: { category, name: 'resource_delete', description: 'Remove the permissions of a folder or file (SETTING on its path)', level: 2 },
  // Administrators only: the web reads it for the default-permissions section, and it holds the
  // server path and the cloud bucket, which are not a USER's business.
  settings: { category: 'setting', name: 'setting', description: 'Default permissions and storage locations', level: 2 },
  updateSettings: { category: 'setting', name: 'setting_update', description: 'Change the default permissions (the admin row: level 3 only)', level: 2 },
} satisfies Record<string, RoutePolicy>;

export interface PermissionRoutesDeps {
  resources: ResourcesService;
  defaults: DefaultPermissionsService;
}

/** Resources (per-node permission entries) and the default permissions (`/api/setting`). */
export async function permissionRoutes(app: FastifyInstance, { resources, defaults }: PermissionRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get(
    '/api/resource',
    { config: { policy: policies.resources }, schema: { tags, querystring: resourceQuerySchema, response: { 200: resourceListSchema } } },
    (request) => resources.list(request.query),
  );
  r.post(
    '/api/resource',
    { config: { policy: policies.createResource }, schema: { tags, body: createResourceRequestSchema, response: { 200: resourceSchema } } },
    (request) => resources.create(callerOf(request), request.body),
  );
  r.put(
    '/api/resource',
    { config: { policy: policies.updateResource }, schema: { tags, body: updateResourceRequestSchema, response: { 200: resourceSchema } } },
    (request) => resources.update(callerOf(request), request.body),
  );
  r.delete(
    '/api/resource/:id',
    { config: { policy: policies.deleteResource }, schema: { tags, params: resourceIdParamsSchema, response: { 200: z.object({ success: z.boolean() }) } } },
    async (request) => {
      await resources.remove(callerOf(request), request.params.id);
      return { success: true };
    },
  );

  r.get('/api/setting', { config: { policy: policies.settings }, schema: { tags: ['setting'], response: { 200: settingListSchema } } }, () =>
    defaults.settingList(),
  );
  r.put(
    '/api/setting',
    { config: { policy: policies.updateSettings }, schema: { tags: ['setting'], body: updateSettingRequestSchema, response: { 200: settingListSchema } } },
    async (request) => {
      await defaults.update(callerOf(request), request.body.permission);
      return defaults.settingList();
    },
  );
}
