import {
  CHUNK_SIZE,
  downloadQuerySchema,
  MESSAGE_KEYS,
  type MessageKey,
  pathQuerySchema,
  previewStreamQuerySchema,
  previewTicketSchema,
  uploadChunkResponseSchema,
  uploadFieldsSchema,
  uploadCancelRequestSchema,
  uploadStatusQuerySchema,
  uploadStatusSchema,
} from '@bogwan/contracts';
import type { FastifyInstance, FastifyReply, FastifyRequest } from 'fastify';
import type { ZodTypeProvider } from 'fastify-type-provider-zod';
import { badRequest, forbidden, unauthorized } from '../../errors.js';
import type { RoutePolicy } from '../../http/policy.js';
import type { SessionsRepo } from '../sessions/sessions.repo.js';
import { FREE_TICKET, settleWhenSent } from './download-gate.js';
import type { DownloadService, FileBody } from './download.service.js';
import { contentDisposition, etagMatches, PREVIEW_CSP, parseRange, previewType } from './http-bytes.js';
import type { PreviewTickets } from './preview-tickets.js';
import { ChunkBody } from './chunk-body.js';
import { piecesOf } from './request-pieces.js';
import type { UploadService } from './upload.service.js';

const category = 'file';
const policies = {
  upload: { category, name: 'file_upload', description: 'Upload a file in 10 MiB chunks (CREATE on the folder)', level: 1 },
  uploadStatus: { category, name: 'file_upload_status', description: 'Chunks already received of an upload, to resume it', level: 1 },
  uploadCancel: {
    category,
    name: 'file_upload_cancel',
    description: 'Marks the caller\u2019s upload as canceled in the task panel (what was received is kept for a retry)',
    level: 1,
  },
  download: {
    category,
    name: 'file_download',
    description: 'Download a file, or a folder or selection as a zip (DOWNLOAD); with the bearer token or a download ticket',
    level: 1,
    authentication: 'file-download-ticket',
  },
  preview: { category, name: 'file_preview', description: 'File bytes for the in-app preview, sandboxed (PREVIEW)', level: 1 },
  previewTicket: { category, name: 'file_preview_ticket', description: 'A ticket to stream a video or audio preview with ranges (PREVIEW)', level: 1 },
  previewStream: {
    category,
    name: 'file_preview_stream',
    description: 'A preview streamed to a media element; the ticket stands for the sign-in and PREVIEW is checked again on every request',
    level: 0,
  },
} satisfies Record<string, RoutePolicy>;

export interface TransferRoutesDeps {
  uploads: UploadService;
  downloads: DownloadService;
  tickets: PreviewTickets;
  sessions: SessionsRepo;
}

const KNOWN_KEYS = new Set<string>(MESSAGE_KEYS);

export async function transferRoutes(app: FastifyInstance, { uploads, downloads, tickets, sessions }: TransferRoutesDeps): Promise<void> {
  // A chunk's multipart body is left unread here: the upload route reads it itself
  // (ChunkBody), fields first, the file part straight from the socket to the store.
  app.addContentTypeParser('multipart/form-data', (_request, _payload, done) => done(null, undefined));
  const r = app.withTypeProvider<ZodTypeProvider>();

  r.post(
    '/api/file/upload',
    {
      config: { policy: policies.upload },
      schema: { tags: [category], consumes: ['multipart/form-data'], response: { 200: uploadChunkResponseSchema } },
    },
    async (request) => {
      // Fields must precede the file part: they are checked before a byte of the chunk is stored.
      const body = await ChunkBody.open(piecesOf(request.raw), request.headers['content-type']);
      try {
        const parsed = uploadFieldsSchema.safeParse(body.fields);
        if (!parsed.success) {
          const key = parsed.error.issues.map((i) => i.message).find((m) => KNOWN_KEYS.has(m));
          throw badRequest((key as MessageKey | undefined) ?? 'upload_chunk_invalid');
        }
        return await uploads.receive(await uploads.prepare(request.user!, parsed.data), body, request.ip);
      } catch (error) {
        // The rest of the body is read and dropped, so the request ends and can be answered.
        await body.discard();
        throw error;
      }
    },
  );

  r.post(
    '/api/file/upload/cancel',
    { config: { policy: policies.uploadCancel }, schema: { tags: [category], body: uploadCancelRequestSchema } },
    async (request, reply) => {
      await uploads.canceled(request.user!, request.body);
      return reply.code(204).send();
    },
  );

  r.get(
    '/api/file/upload/status',
    {
      config: { policy: policies.uploadStatus },
      schema: { tags: [category], querystring: uploadStatusQuerySchema, response: { 200: uploadStatusSchema } },
    },
    async (request, reply) => {
      reply.header('cache-control', 'no-store');
      return { received: await uploads.status(request.user!, request.query), chunkSize: CHUNK_SIZE as typeof CHUNK_SIZE };
    },
  );

  r.get(
    '/api/file/download',
    { config: { policy: policies.download }, schema: { tags: [category], querystring: downloadQuerySchema } },
    async (request, reply) => {
      const user = request.user!;
      const paths = request.query.paths ?? [request.query.path!];
      const nodes = [];
      for (const path of paths) nodes.push(await downloads.require(user, path, 'DOWNLOAD'));
      settleWhenSent(request, reply, await downloads.admit(user, nodes), (error) => request.log.error({ err: error }, 'download not settled'));
      const single = request.query.path !== undefined ? nodes[0]! : undefined;
      if (single && single.folder !== 1) {
        const file = await downloads.file(single);
        // Recorded before the first byte of the file's start; the later ranges of a resumed or segmented download are not again.
        const record = () => downloads.recordTransfer(user, 'file.download', [{ node: single, path: paths[0]! }]);
        await sendFile(request, reply, file, { disposition: 'attachment', type: 'application/octet-stream', beforeStart: record });
        return reply;
      }
      const name = single ? `${single.name}.zip` : 'download.zip';
      await downloads.recordTransfer(
        user,
        'file.download_zip',
        nodes.map((node, i) => ({ node, path: paths[i]! })),
        { zip: name, items: nodes.length },
      );
      const zip = downloads.zip(name, nodes, user);
      return reply
        .header('content-type', 'application/zip')
        .header('content-disposition', contentDisposition('attachment', zip.name))
        .header('cache-control', 'no-store')
        .send(zip.stream);
    },
  );

  r.get('/api/file/preview', { config: { policy: policies.preview }, schema: { tags: [category], querystring: pathQuerySchema } }, async (request, reply) => {
    const node = await downloads.require(request.user!, request.query.path, 'PREVIEW');
    if (node.folder === 1) throw badRequest('invalid_path');
    settleWhenSent(request, reply, await downloads.admit(request.user!, [node], 'PREVIEW'), (error) =>
      request.log.error({ err: error }, 'preview not settled'),
    );
    const record = () => downloads.recordTransfer(request.user!, 'file.view', [{ node, path: request.query.path }]);
    await sendPreview(request, reply, await downloads.file(node), record);
    return reply;
  });

  r.get(
    '/api/file/preview/ticket',
    { config: { policy: policies.previewTicket }, schema: { tags: [category], querystring: pathQuerySchema, response: { 200: previewTicketSchema } } },
    async (request, reply) => {
      const user = request.user!;
      const node = await downloads.require(user, request.query.path, 'PREVIEW');
      if (node.folder === 1) throw badRequest('invalid_path');
      reply.header('cache-control', 'no-store');
      // Bytes that are counted (secure folders) are never streamed in pieces: the preview fetches them once.
      const admitted = await downloads.admit(user, [node], 'PREVIEW');
      if (admitted !== FREE_TICKET) {
        await admitted.settle(false);
        return { ticket: null };
      }
      // The media element streams the preview in ranges under this ticket: the view is recorded once, here.
      await downloads.recordTransfer(user, 'file.view', [{ node, path: request.query.path }]);
      return { ticket: await tickets.sign({ userId: user.id, sessionId: request.sessionId!, nodeId: node.id }) };
    },
  );

  r.get(
    '/api/file/preview/stream',
    { config: { policy: policies.previewStream }, schema: { tags: [category], querystring: previewStreamQuerySchema } },
    async (request, reply) => {
      const claims = await tickets.verify(request.query.ticket);
      if (!claims) throw unauthorized();
      const user = await sessions.findUserOfOpenSession(claims.userId, claims.sessionId);
      if (!user || user.status !== 'ACTIVE') throw unauthorized();
      if (user.must_change_password === 1) throw forbidden('password_change_required');
      const node = await downloads.require(user, request.query.path, 'PREVIEW');
      // The ticket is for one node: a file moved, renamed or replaced since needs a new one.
      if (node.id !== claims.nodeId) throw forbidden();
      const admitted = await downloads.admit(user, [node], 'PREVIEW');
      if (admitted !== FREE_TICKET) {
        await admitted.settle(false);
        throw forbidden('secure_approval_required');
      }
      await sendPreview(request, reply, await downloads.file(node));
      return reply;
    },
  );
}

/** A file's bytes for a preview: inline, sandboxed, never sniffed into something active. */
function sendPreview(request: FastifyRequest, reply: FastifyReply, file: FileBody, beforeStart?: () => Promise<void>): Promise<boolean> {
  reply.header('content-security-policy', PREVIEW_CSP).header('cross-origin-resource-policy', 'same-origin').header('x-content-type-options', 'nosniff');
  return sendFile(request, reply, file, { disposition: 'inline', type: previewType(file.node.name), beforeStart });
}

/**
 * Answers a file with validators and ranges: 304 when `If-None-Match` names its ETag,
 * 206 for one satisfiable `Range` (416 otherwise), 200 with the whole body else.
 * Answers true when bytes were sent. `beforeStart` runs before the first byte of an answer
 * that starts at the file's first byte (the whole body, or a range from 0; not a later
 * range, not a 304): the audit record of a download or a view. So a text preview (which
 * asks for its first bytes) records one view, and a resumed download no second download.
 */
export async function sendFile(
  request: FastifyRequest,
  reply: FastifyReply,
  file: FileBody,
  options: { disposition: 'attachment' | 'inline'; type: string; beforeStart?: () => Promise<void> },
): Promise<boolean> {
  reply.header('etag', file.etag).header('last-modified', file.lastModified).header('accept-ranges', 'bytes').header('cache-control', 'private, no-cache');
  if (etagMatches(request.headers['if-none-match'], file.etag)) {
    await reply.code(304).send();
    return false;
  }
  const ifRange = request.headers['if-range'];
  let range = parseRange(request.headers.range, file.size);
  if (range !== null && ifRange !== undefined && ifRange !== file.etag) range = null;
  if (range === 'unsatisfiable') {
    await reply.code(416).header('content-range', `bytes */${file.size}`).send({ statusCode: 416, message: 'invalid_request_message' });
    return false;
  }
  reply.header('content-type', options.type).header('content-disposition', contentDisposition(options.disposition, file.node.name));
  const body = await file.open(range ?? undefined);
  try {
    if (!range || range.start === 0) await options.beforeStart?.();
  } catch (error) {
    body.destroy();
    throw error;
  }
  if (range) {
    reply
      .code(206)
      .header('content-range', `bytes ${range.start}-${range.end}/${file.size}`)
      .header('content-length', range.end - range.start + 1);
    await reply.send(body);
    return true;
  }
  reply.header('content-length', file.size);
  await reply.send(body);
  return true;
}
