import { messageResponseSchema, taskCacheSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { TasksService } from './tasks.service.js';

const category = 'task';
const policies = {
  // Loaded on every page, the password-change screen included (its own tasks only, nothing to change).
  cache: { category, name: 'task_cache', description: "The signed-in user's background tasks", level: 1, beforePasswordChange: true },
  remove: { category, name: 'task_delete', description: 'Remove one of one\u2019s finished tasks from the list', level: 1 },
  cancelSnapshot: { category, name: 'snapshot_cancel', description: 'Cancel a running snapshot', level: 1 },
  cancelRestore: { category, name: 'restore_cancel', description: 'Cancel a running restore', level: 1 },
} satisfies Record<string, RoutePolicy>;

export async function taskRoutes(app: FastifyInstance, { tasks }: { tasks: TasksService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];

  r.get('/api/cache', { config: { policy: policies.cache }, schema: { tags, response: { 200: taskCacheSchema } } }, (request) =>
    tasks.cacheOf(request.user!.id),
  );

  r.delete(
    '/api/cache/:cacheKey',
    { config: { policy: policies.remove }, schema: { tags, params: z.object({ cacheKey: z.string().max(200) }) } },
    async (request, reply) => {
      await tasks.remove(request.user!.id, request.params.cacheKey);
      return reply.code(204).send();
    },
  );

  for (const type of ['snapshot', 'restore'] as const) {
    r.post(
      `/api/${type}/cancel/:id`,
      {
        config: { policy: type === 'snapshot' ? policies.cancelSnapshot : policies.cancelRestore },
        schema: { tags, params: z.object({ id: z.string().max(64) }), response: { 200: messageResponseSchema } },
      },
      async (request) => {
        await tasks.cancel(type, request.params.id, request.user!);
        return { success: true, message: 'request_success_message' };
      },
    );
  }
}
