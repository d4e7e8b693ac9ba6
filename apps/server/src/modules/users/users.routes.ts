import { changePasswordRequestSchema, changePasswordResponseSchema, userSchema } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { forbidden } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { AccessTokens } from '../auth/access-token.js';
import type { AuthService } from '../auth/auth.service.js';
import { clientOf } from '../sessions/session-cookies.js';
import { toUserResponse } from './users.presenter.js';

const policies = {
  me: { category: 'user', name: 'me', description: 'The signed-in account', level: 1, beforePasswordChange: true },
  password: {
    category: 'user',
    name: 'password_change',
    description: 'Change one\u2019s own password; the account\u2019s other sessions end',
    level: 1,
    licenceExempt: true,
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
}
