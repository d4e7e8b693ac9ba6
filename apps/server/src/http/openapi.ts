import swagger from '@fastify/swagger';
import swaggerUi from '@fastify/swagger-ui';
import { BUILD_VERSION } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import { jsonSchemaTransform } from 'fastify-type-provider-zod';
import { applyPolicyToScope } from './policy.js';

/** OpenAPI document from the routes' zod schemas, with its browser at `/api/docs`. */
export async function registerOpenApi(app: FastifyInstance): Promise<void> {
  await app.register(swagger, {
    openapi: {
      info: { title: 'Bogwan API', description: 'Self-hosted file storage, sharing and backup', version: BUILD_VERSION },
      components: { securitySchemes: { bearer: { type: 'http', scheme: 'bearer', bearerFormat: 'JWT' } } },
      security: [{ bearer: [] }],
    },
    transform: jsonSchemaTransform,
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
