import { authResponseSchema, loginRequestSchema, setupRequestSchema, setupStatusSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { AuthService } from './auth.service.js';

const category = 'auth';
const policies = {
  setupStatus: { category, name: 'setup_status', description: 'Whether the first account still has to be created', level: 0 },
  setup: { category, name: 'setup', description: 'Create the first account with the one-time setup token', level: 0 },
  login: { category, name: 'login', description: 'Sign in with email and password', level: 0 },
  logout: { category, name: 'logout', description: 'Sign out: every access token of the account stops working', level: 1 },
} satisfies Record<string, RoutePolicy>;

export async function authRoutes(app: FastifyInstance, { auth }: { auth: AuthService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.get(
    '/api/auth/setup',
    { config: { policy: policies.setupStatus }, schema: { tags: [category], response: { 200: setupStatusSchema } } },
    () => auth.setupStatus(),
  );

  r.post(
    '/api/auth/setup',
    {
      config: { policy: policies.setup },
      schema: { tags: [category], body: setupRequestSchema, response: { 200: authResponseSchema } },
    },
    (request) => auth.setup(request.body),
  );

  r.post(
    '/api/auth/login',
    {
      config: { policy: policies.login },
      schema: { tags: [category], body: loginRequestSchema, response: { 200: authResponseSchema } },
    },
    (request) => auth.login(request.body),
  );

  r.post('/api/auth/logout', { config: { policy: policies.logout }, schema: { tags: [category] } }, async (request, reply) => {
    await auth.logout(request.user!);
    return reply.code(204).send();
  });
}
