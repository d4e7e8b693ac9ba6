import {
  addGroupMembersRequestSchema,
  createGroupRequestSchema,
  groupIdParamsSchema,
  groupInfoListSchema,
  groupInfoQuerySchema,
  groupInfoSchema,
  groupListSchema,
  groupMemberParamsSchema,
  groupNotificationRequestSchema,
  okResponseSchema,
  updateGroupRequestSchema,
} from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { callerOf } from '../files/files.routes.js';
import type { GroupsService } from './groups.service.js';

const category = 'group';
const policies = {
  list: { category, name: 'group_list', description: 'Groups with their members and folder permissions', level: 2 },
  info: { category, name: 'group_info', description: 'Group names and sizes (pickers)', level: 1 },
  create: { category, name: 'group_create', description: 'Create a group', level: 2 },
  update: { category, name: 'group_update', description: "Edit a group's name and description", level: 2 },
  remove: { category, name: 'group_delete', description: 'Delete a group (its members leave it first; not the default group)', level: 2 },
  addMembers: { category, name: 'group_members_add', description: 'Invite accounts to a group (they are notified)', level: 2 },
  removeMember: { category, name: 'group_member_remove', description: 'Remove an account from a group', level: 2 },
  notify: { category: 'notification', name: 'notification_group', description: 'Tell a member about their group', level: 2 },
} satisfies Record<string, RoutePolicy>;

export async function groupRoutes(app: FastifyInstance, { groups }: { groups: GroupsService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get('/api/group', { config: { policy: policies.list }, schema: { tags, response: { 200: groupListSchema } } }, () => groups.list());
  r.get(
    '/api/group/info',
    { config: { policy: policies.info }, schema: { tags, querystring: groupInfoQuerySchema, response: { 200: groupInfoListSchema } } },
    (request) => groups.info(request.query._id),
  );
  r.post(
    '/api/group',
    { config: { policy: policies.create }, schema: { tags, body: createGroupRequestSchema, response: { 200: groupInfoSchema } } },
    (request) => groups.create(callerOf(request), request.body),
  );
  r.put(
    '/api/group',
    { config: { policy: policies.update }, schema: { tags, body: updateGroupRequestSchema, response: { 200: groupInfoSchema } } },
    (request) => groups.update(callerOf(request), request.body),
  );
  r.delete(
    '/api/group/:id',
    { config: { policy: policies.remove }, schema: { tags, params: groupIdParamsSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await groups.remove(callerOf(request), request.params.id);
      return { success: true };
    },
  );
  r.post(
    '/api/group/:id/members',
    {
      config: { policy: policies.addMembers },
      schema: { tags, params: groupIdParamsSchema, body: addGroupMembersRequestSchema, response: { 200: groupInfoSchema } },
    },
    (request) => groups.addMembers(callerOf(request), request.params.id, request.body.userIds),
  );
  r.delete(
    '/api/group/:id/members/:userId',
    { config: { policy: policies.removeMember }, schema: { tags, params: groupMemberParamsSchema, response: { 200: groupInfoSchema } } },
    (request) => groups.removeMember(callerOf(request), request.params.id, request.params.userId),
  );
  r.post(
    '/api/notification/group',
    { config: { policy: policies.notify }, schema: { tags: ['notification'], body: groupNotificationRequestSchema, response: { 200: okResponseSchema } } },
    async (request) => {
      await groups.notifyMembership(callerOf(request), request.body.userId, request.body.groupId);
      return { success: true };
    },
  );
}
