import { messageResponseSchema, notificationQuerySchema, notificationSchema, notificationUpdateSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { forbidden, notFound } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { NotificationsService } from './notifications.service.js';

const category = 'notification';
const policies = {
  list: { category, name: 'notification_list', description: "The signed-in user's notifications", level: 1 },
  update: { category, name: 'notification_read', description: 'Mark one of one\u2019s notifications read or unread', level: 1 },
  readAll: { category, name: 'notification_read_all', description: 'Mark all of one\u2019s notifications read', level: 1 },
} satisfies Record<string, RoutePolicy>;

export async function notificationRoutes(app: FastifyInstance, { notifications }: { notifications: NotificationsService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get(
    '/api/notification',
    { config: { policy: policies.list }, schema: { tags, querystring: notificationQuerySchema, response: { 200: z.array(notificationSchema) } } },
    (request) => {
      // The spec's client sends its own id; anyone else's is refused, never served.
      if (request.query.userId && request.query.userId !== request.user!.id) throw forbidden();
      return notifications.list(request.user!.id, request.query.read);
    },
  );

  r.put(
    '/api/notification',
    { config: { policy: policies.update }, schema: { tags, body: notificationUpdateSchema, response: { 200: messageResponseSchema } } },
    async (request) => {
      if (!(await notifications.setRead(request.user!.id, request.body._id, request.body.read))) throw notFound();
      return { success: true, message: 'request_success_message' };
    },
  );

  r.put('/api/notification/read-all', { config: { policy: policies.readAll }, schema: { tags, response: { 200: messageResponseSchema } } }, async (request) => {
    await notifications.readAll(request.user!.id);
    return { success: true, message: 'request_success_message' };
  });
}
