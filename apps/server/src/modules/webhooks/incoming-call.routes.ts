import fastifyMultipart from '@fastify/multipart';
import { incomingUploadResponseSchema, WEBHOOK_MAX_FILE_BYTES } from '@bogwan/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { z } from 'zod';
import { badRequest } from '../../errors.js';
import { guardFileStream } from '../../http/multipart.js';
import type { RoutePolicy } from '../../http/policy.js';
import { accessTokenOf, type IncomingWebhooks } from './incoming.service.js';
import type { IncomingWebhookRow } from './webhooks.repo.js';

const policy: RoutePolicy = {
  category: 'webhook',
  name: 'webhook_incoming_call',
  description: 'An outside system uploads a file with the webhook\u2019s access token (no sign-in)',
  level: 0,
};

/**
 * A refused caller's body is never read (it may be up to 1 GiB): the answer closes the
 * connection, and the request is destroyed once the answer is sent.
 */
function closeAfterAnswer(request: FastifyRequest, reply: FastifyReply): void {
  reply.header('connection', 'close');
  reply.raw.once('finish', () => request.raw.destroy());
}

/**
 * The public URL of incoming webhooks: `POST /api/webhooks/incoming/{token}`, multipart
 * with one `file` part (and an optional `path` field, before the file, naming a folder
 * inside the webhook's folder); the access token in `Authorization: Bearer …`. The call
 * is admitted from its URL, headers and address before any of the body is read.
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
    async (request, reply) => {
      let hook: IncomingWebhookRow;
      try {
        hook = await incoming.admit({ token: request.params.token, accessToken: accessTokenOf(request.headers), ip: request.ip });
      } catch (error) {
        closeAfterAnswer(request, reply);
        throw error;
      }
      let part;
      try {
        if (!request.isMultipart()) throw badRequest('multipart_body_invalid');
        part = await request.file();
        if (!part) throw badRequest('multipart_body_invalid');
      } catch (error) {
        await incoming.refuseBody(hook, error, request.ip);
        throw error;
      }
      const field = part.fields.path;
      const pathField = field && !Array.isArray(field) && field.type === 'field' ? String(field.value) : undefined;
      const source = part.file;
      const file = guardFileStream(source);
      const stored = await incoming.receive(hook, { path: pathField, fileName: part.filename, file, truncated: () => source.truncated }, request.ip);
      return { success: true as const, ...stored };
    },
  );
}
