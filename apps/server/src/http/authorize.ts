import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.js';
import type { AccessTokens } from '../modules/auth/access-token.js';
import type { SessionsRepo } from '../modules/sessions/sessions.repo.js';
import type { UserRow } from '../modules/users/users.repo.js';

declare module 'fastify' {
  interface FastifyRequest {
    /** The signed-in account, set by the authorization hook on routes above level 0. */
    user: UserRow | null;
    /** The session the access token belongs to. */
    sessionId: string | null;
  }
}

export interface AuthorizeDeps {
  tokens: AccessTokens;
  sessions: SessionsRepo;
}

/**
 * The one authorization check. Runs before the body is read: a route without a policy
 * is refused (deny by default); level 0 is public; above that the bearer token must be
 * valid, the account ACTIVE and its roleLevel at least the policy's level.
 */
export function registerAuthorization(app: FastifyInstance, deps: AuthorizeDeps): void {
  app.decorateRequest('user', null);
  app.decorateRequest('sessionId', null);
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const policy = request.routeOptions.config.policy;
    if (!policy) {
      request.log.error({ url: request.routeOptions.url, method: request.method }, 'route without a policy refused');
      throw forbidden();
    }
    if (policy.level === 0) return;
    const signedIn = await authenticate(request, deps);
    if (!signedIn) throw unauthorized();
    if (signedIn.user.role_level < policy.level) throw forbidden();
    // An account on the system's initial password reaches only its own security calls
    // (those the licence gate also lets through: password change, second factors) until it changes it.
    if (signedIn.user.must_change_password === 1 && !policy.licenceExempt && !policy.beforePasswordChange) throw forbidden('password_change_required');
    request.user = signedIn.user;
    request.sessionId = signedIn.sessionId;
  });
}

/** The ACTIVE account and open session a bearer token stands for, or null. */
export async function authenticate(
  request: FastifyRequest,
  deps: AuthorizeDeps,
): Promise<{ user: UserRow; sessionId: string } | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  const claims = await deps.tokens.verify(header.slice(7).trim());
  if (!claims) return null;
  const user = await deps.sessions.findUserOfOpenSession(claims.sub, claims.sid);
  if (!user || user.status !== 'ACTIVE') return null;
  return { user, sessionId: claims.sid };
}
