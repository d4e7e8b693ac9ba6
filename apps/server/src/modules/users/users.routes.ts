import { accountLanguageRequestSchema, changePasswordRequestSchema, changePasswordResponseSchema, userSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { AccessTokens } from '../auth/access-token.js';
import type { AuthService } from '../auth/auth.service.js';
import { clientOf } from '../sessions/session-cookies.js';
import { toUserResponse } from './users.presenter.js';
import { UsersRepo } from './users.repo.js';

const policies = {
  me: { category: 'user', name: 'me', description: 'The signed-in account', level: 1, beforePasswordChange: true },
  password: {
    category: 'user',
    name: 'password_change',
    description: 'Change one\u2019s own password; the account\u2019s other sessions end',
    level: 1,
    licenceExempt: true,
  },
  language: {
    category: 'user',
    name: 'language_change',
    description: 'Choose one\u2019s own language (e-mails are written in it)',
    level: 1,
    beforePasswordChange: true,
  },
} satisfies Record<string, RoutePolicy>;

export interface UserRoutesDeps {
  auth: AuthService;
  tokens: AccessTokens;
}

export async function userRoutes(app: FastifyInstance, deps: UserRoutesDeps): Promise<void> {
  const r = app.withTypeProvider<ZodTypeProvider>();
  r.get('/api/user/me', { config: { policy: policies.me }, schema: { tags: ['user'], response: { 200: userSchema } } }, (request) =>
    toUserResponse(request.user!),
  );

  r.put(
    '/api/user/password',
    {
      config: { policy: policies.password },
      schema: {
        tags: ['user'],
        body: changePasswordRequestSchema,
        response: { 200: changePasswordResponseSchema },
      },
    },
    async (request) => {
      const user = request.user!;
      if (request.body._id !== user.id) throw forbidden();
      await deps.auth.changePassword(user, request.sessionId!, request.body.password, request.body.newPassword, clientOf(request));
      const token = await deps.tokens.sign({ sub: user.id, sid: request.sessionId! });
      return { success: true, message: 'password_change_complete_message', token };
    },
  );

  const users = new UsersRepo(app.db);
  r.put(
    '/api/user/language',
    { config: { policy: policies.language }, schema: { tags: ['user'], body: accountLanguageRequestSchema, response: { 200: userSchema } } },
    async (request) => {
      // Always the caller's own account: no id is taken from the body.
      await users.setLanguage(request.user!.id, request.body.language);
      return toUserResponse({ ...request.user!, language: request.body.language });
    },
  );
}
