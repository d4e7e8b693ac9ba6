import { SHARE_TOKEN_HEADER } from '@bogwan/contracts';
import type { SwaggerTransform } from '@fastify/swagger';
import type { FastifySchema } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { REFRESH_COOKIE } from '../modules/sessions/session-cookies.js';
import { declaredValidationKeys, errorResponses, genericErrorKeys } from './openapi-errors.js';
import type { RoutePolicy } from './policy.js';

/** How callers prove who they are; each operation names the ones it accepts. */
export const SECURITY_SCHEMES = {
  bearer: {
    type: 'http',
    scheme: 'bearer',
    bearerFormat: 'JWT',
    description: 'The access token from sign-in or refresh',
  },
  refreshCookie: {
    type: 'apiKey',
    in: 'cookie',
    name: REFRESH_COOKIE,
    description: 'The session cookie that refresh exchanges for a new access token',
  },
  shareToken: {
    type: 'apiKey',
    in: 'header',
    name: SHARE_TOKEN_HEADER,
    description: "A share link's unlock token, after its password was given",
  },
  ticket: {
    type: 'apiKey',
    in: 'query',
    name: 'ticket',
    description: 'A single-use, short-lived download ticket (share downloads, audit exports)',
  },
  basic: {
    type: 'http',
    scheme: 'basic',
    description: 'WebDAV under /dav/ only: the email and an app password (not described here: not JSON)',
  },
} as const;

type Security = Record<string, string[]>[];

/** Operations whose credential is the refresh cookie rather than the bearer token. */
const REFRESH_COOKIE_OPERATIONS = new Set(['refresh', 'logout']);

/** Routes left out of the document: WebDAV (not JSON, its own protocol), the web app's files and the docs themselves. */
function isHidden(policy: RoutePolicy | undefined, url: string): boolean {
  return (
    !policy || policy.unlisted === true || policy.authentication === 'app-password' || url === '/dav' || url.startsWith('/dav/') || policy.name === 'api_docs'
  );
}

function securityOf(policy: RoutePolicy, url: string): Security {
  if (REFRESH_COOKIE_OPERATIONS.has(policy.name) && policy.category === 'auth') return [{ refreshCookie: [] }];
  if (policy.authentication === 'audit-export-ticket') return [{ ticket: [] }, { bearer: [] }];
  if (policy.name === 'share_public_ticket_download') return [{ ticket: [] }];
  // A share link is public; a bearer token or the link's unlock token admits more.
  if (url.startsWith('/api/share/public/')) return [{}, { shareToken: [] }, { bearer: [] }];
  return policy.level > 0 ? [{ bearer: [] }] : [];
}

/** The operation's name: the policy name, made unique when one policy covers several methods. */
function operationIdOf(policy: RoutePolicy, route: { method: string | string[] }, method: string): string {
  return Array.isArray(route.method) && route.method.length > 1 ? `${policy.name}_${method.toLowerCase()}` : policy.name;
}

/**
 * Describes one route in the OpenAPI document: its zod schemas as JSON schema, and from its
 * policy the operation's id, summary, tag, credentials and the refusals it can answer.
 */
export const describeOperation: SwaggerTransform = (document) => {
  const { route, url } = document;
  const policy = route.config?.policy;
  if (isHidden(policy, url)) return { schema: { hide: true } as FastifySchema, url };
  const method = (Array.isArray(route.method) ? route.method[0]! : route.method).toUpperCase();
  const zodSchema = (document.schema ?? {}) as FastifySchema & {
    tags?: string[];
  };
  const { schema } = jsonSchemaTransform({ ...document, schema: zodSchema });
  const described = schema as FastifySchema & Record<string, unknown>;

  const keys = genericErrorKeys(policy!, method, Boolean(zodSchema.body || zodSchema.querystring || zodSchema.params));
  for (const input of [zodSchema.body, zodSchema.querystring, zodSchema.params]) {
    for (const key of declaredValidationKeys(input)) keys.set(400, (keys.get(400) ?? new Set()).add(key));
  }
  const response = {
    ...((described.response as Record<string, unknown> | undefined) ?? {}),
  };
  if (!Object.keys(response).some((status) => status.startsWith('2'))) {
    // No JSON answer declared: a file, a stream or an empty body.
    response['200'] = {
      description: 'Success (a file, a stream or no body; not JSON)',
      type: 'null',
    };
  }
  return {
    url,
    schema: {
      ...described,
      operationId: operationIdOf(policy!, route, method),
      summary: policy!.description,
      tags: zodSchema.tags ?? [policy!.category],
      security: securityOf(policy!, url),
      response: { ...response, ...errorResponses(keys) },
    } as FastifySchema,
  };
};
