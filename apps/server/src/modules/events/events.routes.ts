import { activityListSchema, activityQuerySchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { EventsRepo } from './events.repo.js';

const policies = {
  list: {
    category: 'event',
    name: 'event_list',
    description: 'The activity log: one\u2019s own; administrators anyone\u2019s',
    level: 1,
  },
} satisfies Record<string, RoutePolicy>;

export async function eventRoutes(app: FastifyInstance, { events }: { events: EventsRepo }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/event',
    { config: { policy: policies.list }, schema: { tags: ['event'], querystring: activityQuerySchema, response: { 200: activityListSchema } } },
    async (request) => {
      const user = request.user!;
      const { userId, skip, limit } = request.query;
      const isAdmin = user.role_level >= 2;
      if (userId && userId !== user.id && !isAdmin) throw forbidden();
      const page = await events.page(isAdmin ? userId : user.id, skip, limit);
      return {
        total: page.total,
        items: page.items.map((e) => ({
          _id: e.id,
          createdAt: e.created_at,
          service: e.service,
          message: e.message,
          userId: e.user_id,
          ip: e.ip,
        })),
      };
    },
  );
}
