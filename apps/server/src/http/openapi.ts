import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { BUILD_VERSION } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import { createJsonSchemaTransformObject } from 'fastify-type-provider-zod';
import { ERROR_BODY_SCHEMA } from './openapi-errors.js';
import { describeOperation, SECURITY_SCHEMES } from './openapi-operations.js';
import { applyPolicyToScope } from './policy.js';

const DESCRIPTION = [
  'Self-hosted file storage, sharing and backup.',
  '',
  'Every refusal answers `{statusCode, message}`; `message` is a message key the client translates.',
  'WebDAV under `/dav/` (HTTP Basic with an app password) is not JSON and is not described here; see the README.',
].join('\n');

/** OpenAPI document from the routes' zod schemas and policies, with its browser at `/api/docs`. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: {
        title: 'Bogwan API',
        description: DESCRIPTION,
        version: BUILD_VERSION,
      },
      components: { securitySchemes: SECURITY_SCHEMES, schemas: { ErrorBody: ERROR_BODY_SCHEMA } },
      security: [{ bearer: [] }],
    },
    transform: describeOperation,
    // Schemas with an id (the recursive folder tree) become components the operations refer to.
    transformObject: createJsonSchemaTransformObject({}),
  });
  await app.register(async (scope) => {
    applyPolicyToScope(scope, {
      category: 'system',
      name: 'api_docs',
      description: 'The OpenAPI document and its browser',
      level: 0,
      licenceExempt: true,
    });
    await scope.register(swaggerUi, { routePrefix: '/api/docs' });
  });
}
