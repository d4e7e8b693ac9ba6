import type { FastifyInstance, FastifyRequest } from 'fastify';
import { forbidden, unauthorized } from '../errors.js';
import type { AccessTokens } from '../modules/auth/access-token.js';
import type { SessionsRepo } from '../modules/sessions/sessions.repo.js';
import type { UserRow } from '../modules/users/users.repo.js';
import type { RoutePolicy } from './policy.js';

declare module 'fastify' {
  interface FastifyInstance {
    /**
     * Registers how callers of routes with `authentication: kind` are recognised (WebDAV:
     * HTTP Basic with an app password). Once per kind; the server does not start when a
     * route names a kind nobody registered.
     */
    addAuthenticator(kind: NonNullable<RoutePolicy['authentication']>, authenticator: RequestAuthenticator): void;
  }
  interface FastifyRequest {
    /** The signed-in account, set by the authorization hook on routes above level 0. */
    user: UserRow | null;
    /** The session the access token belongs to. */
    sessionId: string | null;
  }
}

/**
 * Recognises the caller of a request by other means than the bearer token: the ACTIVE
 * account, or null (401). May throw its own refusal (e.g. 429 while the address is throttled).
 */
export type RequestAuthenticator = (request: FastifyRequest) => Promise<UserRow | null>;

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
  const authenticators = new Map<string, RequestAuthenticator>();
  app.decorate('addAuthenticator', (kind: NonNullable<RoutePolicy['authentication']>, authenticator: RequestAuthenticator) => {
    if (authenticators.has(kind)) throw new Error(`authenticator '${kind}' registered twice`);
    authenticators.set(kind, authenticator);
  });
  app.addHook('onReady', async () => {
    const kinds = new Set(app.policies.routes.map((route) => route.policy?.authentication).filter((kind) => kind !== undefined));
    const missing = [...kinds].filter((kind) => !authenticators.has(kind));
    if (missing.length > 0) throw new Error(`routes need the authenticator(s) ${missing.join(', ')}, which no module registered`);
  });
  app.addHook('onRequest', async (request) => {
    if (request.is404) return;
    const policy = request.routeOptions.config.policy;
    if (!policy) {
      request.log.error({ url: request.routeOptions.url, method: request.method }, 'route without a policy refused');
      throw forbidden();
    }
    if (policy.level === 0) return;
    let signedIn: { user: UserRow; sessionId: string | null } | null;
    if (policy.authentication) {
      const authenticator = authenticators.get(policy.authentication);
      if (!authenticator) {
        request.log.error({ url: request.routeOptions.url, kind: policy.authentication }, 'route with an unregistered authentication refused');
        throw forbidden();
      }
      const user = await authenticator(request);
      signedIn = user && user.status === 'ACTIVE' ? { user, sessionId: null } : null;
    } else {
      signedIn = await authenticate(request, deps);
    }
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
export async function authenticate(request: FastifyRequest, deps: AuthorizeDeps): Promise<{ user: UserRow; sessionId: string } | null> {
  const header = request.headers.authorization;
  if (!header?.startsWith('Bearer ')) return null;
  const claims = await deps.tokens.verify(header.slice(7).trim());
  if (!claims) return null;
  const user = await deps.sessions.findUserOfOpenSession(claims.sub, claims.sid);
  if (!user || user.status !== 'ACTIVE') return null;
  return { user, sessionId: claims.sid };
}
