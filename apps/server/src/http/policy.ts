import type { Policy, PolicyLevel } from '@bogwan/contracts';
import type { FastifyInstance, RouteOptions } from 'fastify';

/** What a route declares about itself; method and uri come from the route. */
export interface RoutePolicy {
  category: string;
  name: string;
  description: string;
  /** Minimum roleLevel; 0 means public (no sign-in). */
  level: PolicyLevel;
  /** Served even when the installation needs a licence key (sign-in, health, licence, the web app). */
  licenceExempt?: true;
  /**
   * Reachable by an account that must still replace the system's initial password. Routes
   * that are licence-exempt (sign-in, password, second factors) are reachable too.
   */
  beforePasswordChange?: true;
  /**
   * How the caller proves who they are: the API's bearer token (the default), or HTTP Basic
   * with an app password (WebDAV), or a single-use audit export ticket or file download
   * ticket in the query (else the bearer token). The authorization hook runs the authenticator registered
   * for the kind; a kind nobody registered refuses every call (and stops the start).
   */
  authentication?: 'app-password' | 'audit-export-ticket' | 'file-download-ticket';
  /**
   * Enforced like any other policy but left out of the policy list: the web app's files
   * and static assets are not API routes (one row per built file would drown the list).
   */
  unlisted?: true;
}

declare module 'fastify' {
  interface FastifyContextConfig {
    policy?: RoutePolicy;
  }
}

/** Every route the server knows, with its policy (undefined when it declared none). */
export interface RouteEntry {
  method: string;
  uri: string;
  policy: RoutePolicy | undefined;
  /** The body types the route's schema declares (`multipart/form-data` for file posts). */
  consumes: readonly string[];
}

/**
 * Collects every route as it is registered; the list the Policy screen and the
 * authorization check share. Route options are kept by reference and read lazily,
 * because a scope's own onRoute hook may attach the policy after this one ran.
 */
export class PolicyRegistry {
  private readonly registered: RouteOptions[] = [];

  record(route: RouteOptions): void {
    this.registered.push(route);
  }

  /** Every route, one entry per method, with the policy it ended up with. */
  get routes(): RouteEntry[] {
    return this.registered.flatMap((route) => {
      const methods = Array.isArray(route.method) ? route.method : [route.method];
      const consumes = (route.schema as { consumes?: readonly string[] } | undefined)?.consumes ?? [];
      return methods.map((method) => ({ method, uri: route.url, policy: route.config?.policy, consumes }));
    });
  }

  /** The policies as `GET /api/policy` serves them: API routes only (unlisted ones and HEAD twins left out). */
  list(): Policy[] {
    return this.routes
      .filter((r): r is RouteEntry & { policy: RoutePolicy } => r.policy !== undefined && r.method !== 'HEAD' && !r.policy.unlisted)
      .map(({ policy: { category, name, description, level }, method, uri }) => ({ category, name, description, method, uri, level }))
      .sort((a, b) => a.category.localeCompare(b.category) || a.uri.localeCompare(b.uri) || a.method.localeCompare(b.method));
  }
}

/**
 * Gives every route registered inside `scope` the same policy. For routes that a
 * third-party plugin registers (static files, API docs), which cannot declare one.
 */
export function applyPolicyToScope(scope: FastifyInstance, policy: RoutePolicy): void {
  scope.addHook('onRoute', (route) => {
    route.config = { ...(route.config ?? {}), policy: route.config?.policy ?? policy };
  });
}
