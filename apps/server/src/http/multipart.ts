import { PassThrough, pipeline, type Readable } from 'node:stream';
import type { FastifyInstance, FastifyReply, FastifyRequest, onRequestHookHandler } from 'fastify';
import { badRequest } from '../errors.js';

const MULTIPART = 'multipart/form-data';

/** `multipart/form-data` with a non-empty boundary parameter (what every multipart reader needs). */
const WELL_FORMED_TYPE = /^\s*multipart\/form-data\s*;(?:.*;)?\s*boundary=(?:"[^"]+"|[^\s;"]+)/i;

/** Errors the multipart readers raise for a body that is not a well-formed form (not for limits: those are 413). */
const MALFORMED_CODES = new Set(['FST_INVALID_MULTIPART_CONTENT_TYPE', 'FST_PROTO_VIOLATION', 'FST_INVALID_JSON_FIELD_ERROR']);
const MALFORMED_MESSAGES =
  /unexpected end of multipart data|terminated early due to unexpected end|boundary not found|boundary required|malformed part header/i;

/** True when `error` says the request body was not a readable multipart form (answered 400, not 500). */
export function isMalformedMultipart(error: { code?: unknown; message?: unknown; statusCode?: unknown }): boolean {
  if (typeof error.code === 'string' && MALFORMED_CODES.has(error.code)) return true;
  return error.statusCode === undefined && typeof error.message === 'string' && MALFORMED_MESSAGES.test(error.message);
}

/**
 * The file stream of a multipart part, guarded for a body that breaks off: the reader
 * (busboy) then destroys the part's stream without an error, which a later consumer would
 * see as a stall (already destroyed) or a "premature close" (500). The answer is a stream
 * that fails with 400 `multipart_body_invalid` instead (or throws it, when the body had
 * already broken off). Call it as soon as the part is there, before any await, so no
 * destroy goes unseen.
 */
export function guardFileStream(file: Readable): Readable {
  if (file.destroyed) throw badRequest('multipart_body_invalid');
  const guarded = new PassThrough();
  // Kept on the stream (its consumer may attach later and reads it from there), not thrown
  // at nobody.
  guarded.on('error', () => {});
  pipeline(file, guarded, (error) => {
    if (error) guarded.destroy(badRequest('multipart_body_invalid'));
  });
  return guarded;
}

/** Refuses, before any of it is read, a body whose content type is not multipart with a boundary. */
const requireMultipartType: onRequestHookHandler = async (request: FastifyRequest, reply: FastifyReply) => {
  if (WELL_FORMED_TYPE.test(request.headers['content-type'] ?? '')) return;
  // The body is left unread: the connection closes after the answer instead of draining it.
  reply.header('connection', 'close');
  throw badRequest('multipart_body_invalid');
};

/**
 * Every route whose schema declares `consumes: ['multipart/form-data']` gets the content
 * type check above (missing, wrong, no boundary → 400 `multipart_body_invalid`); the error
 * handler answers the same for a body that breaks off or is not a form. Registered before
 * the routes, so a new multipart route is covered by declaring what it consumes.
 */
export function registerMultipartChecks(app: FastifyInstance): void {
  app.addHook('onRoute', (route) => {
    const consumes = (route.schema as { consumes?: readonly string[] } | undefined)?.consumes;
    if (!consumes?.includes(MULTIPART)) return;
    const existing = route.onRequest === undefined ? [] : Array.isArray(route.onRequest) ? route.onRequest : [route.onRequest];
    route.onRequest = [requireMultipartType, ...existing];
  });
}
