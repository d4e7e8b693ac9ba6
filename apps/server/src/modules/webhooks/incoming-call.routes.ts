import fastifyMultipart from '@fastify/multipart';
import { incomingUploadResponseSchema, WEBHOOK_MAX_FILE_BYTES } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import { accessTokenOf, type IncomingWebhooks } from './incoming.service.js';

const policy: RoutePolicy = {
  category: 'webhook',
  name: 'webhook_incoming_call',
  description: 'An outside system uploads a file with the webhook\u2019s access token (no sign-in)',
  level: 0,
};

/**
 * The public URL of incoming webhooks: `POST /api/webhooks/incoming/{token}`, multipart
 * with one `file` part (and an optional `path` field, before the file, naming a folder
 * inside the webhook's folder); the access token in `Authorization: Bearer …`.
 */
export async function incomingCallRoutes(app: FastifyInstance, { incoming }: { incoming: IncomingWebhooks }): Promise<void> {
  await app.register(fastifyMultipart, {
    throwFileSizeLimit: false,
    limits: { fileSize: WEBHOOK_MAX_FILE_BYTES, files: 1, fields: 4, fieldSize: 8192, parts: 5 },
  });
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/webhooks/incoming/:token',
    {
      config: { policy },
      schema: {
        tags: ['webhook'],
        consumes: ['multipart/form-data'],
        params: z.object({ token: z.string().min(1).max(64) }),
        response: { 200: incomingUploadResponseSchema },
      },
    },
    async (request) => {
      if (!request.isMultipart()) throw badRequest();
      const part = await request.file();
      if (!part) throw badRequest();
      const field = part.fields.path;
      const pathField = field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined;
      const stored = await incoming.call({
        token: request.params.token,
        accessToken: accessTokenOf(request.headers),
        path: pathField,
        fileName: part.filename,
        file: part.file,
        truncated: () => part.file.truncated,
        ip: request.ip,
      });
      return { success: true as const, ...stored };
    },
  );
}
