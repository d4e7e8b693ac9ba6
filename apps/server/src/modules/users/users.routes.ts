import { userSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import { toUserResponse } from './users.presenter.js';

const policies = {
  me: { category: 'user', name: 'me', description: 'The signed-in account', level: 1 },
} satisfies Record<string, RoutePolicy>;

export async function userRoutes(app: FastifyInstance): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get(
    '/api/user/me',
    { config: { policy: policies.me }, schema: { tags: ['user'], response: { 200: userSchema } } },
    (request) => toUserResponse(request.user!),
  );
}
