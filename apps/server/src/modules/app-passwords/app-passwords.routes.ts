import { appPasswordCreatedSchema, appPasswordCreateSchema, appPasswordListSchema, appPasswordParamsSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import type { RoutePolicy } from '../../http/policy.js';
import type { AppPasswordsService } from './app-passwords.service.js';

const category = 'auth';
const policies = {
  list: { category, name: 'app_passwords', description: "The signed-in user's app passwords (WebDAV), without the passwords", level: 1 },
  create: {
    category,
    name: 'app_password_create',
    description: 'Make an app password for a WebDAV client (shown once); asks for the current password',
    level: 1,
  },
  revoke: { category, name: 'app_password_revoke', description: "Revoke one of the signed-in user's app passwords", level: 1 },
} satisfies Record<string, RoutePolicy>;

/** Each account manages its own app passwords only: the account is the token's, never one named in the call. */
export async function appPasswordRoutes(app: FastifyInstance, deps: { appPasswords: AppPasswordsService }): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  const tags = [category];
  const { appPasswords } = deps;

  r.get('/api/auth/app-passwords', { config: { policy: policies.list }, schema: { tags, response: { 200: appPasswordListSchema } } }, (request) =>
    appPasswords.list(request.user!),
  );

  r.post(
    '/api/auth/app-passwords',
    { config: { policy: policies.create }, schema: { tags, body: appPasswordCreateSchema, response: { 201: appPasswordCreatedSchema } } },
    async (request, reply) => {
      const created = await appPasswords.create(request.user!, request.body.name, request.body.currentPassword, request.ip);
      return reply.code(201).send(created);
    },
  );

  r.delete(
    '/api/auth/app-passwords/:id',
    { config: { policy: policies.revoke }, schema: { tags, params: appPasswordParamsSchema } },
    async (request, reply) => {
      await appPasswords.revoke(request.user!, request.params.id, request.ip);
      return reply.code(204).send();
    },
  );
}
