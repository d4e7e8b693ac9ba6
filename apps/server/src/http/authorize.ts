import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.js';
import type { AccessTokens } from '../modules/auth/access-token.js';
import type { UserRow, UsersRepo } from '../modules/users/users.repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, set by the authorization hook on routes above level 0. */
    user: UserRow | null;
  }
}

export interface AuthorizeDeps {
  tokens: AccessTokens;
  users: UsersRepo;
}

/**
 * The one authorization check. Runs before the body is read: a route without a policy
 * is refused (deny by default); level 0 is public; above that the bearer token must be
 * valid, the account ACTIVE and its roleLevel at least the policy's level.
 */
export function registerAuthorization(app: FastifyInstance, deps: AuthorizeDeps): void {
  app.decorateRequest('user', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const policy = request.routeOptions.config.policy;
    if (!policy) {
      request.log.error({ url: request.routeOptions.url, method: request.method }, 'route without a policy refused');
      throw forbidden();
    }
    if (policy.level === 0) return;
    const user = await authenticate(request, deps);
    if (!user) throw unauthorized();
    if (user.role_level < policy.level) throw forbidden();
    request.user = user;
  });
}

/** The ACTIVE account a bearer token stands for, or null. */
export async function authenticate(request: FastifyRequest, deps: AuthorizeDeps): Promise<UserRow | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  const claims = await deps.tokens.verify(header.slice(7).trim());
  if (!claims) return null;
  const user = await deps.users.findById(claims.sub);
  if (!user || user.status !== 'ACTIVE' || user.token_version !== claims.ver) return null;
  return user;
}
