import { MESSAGE_KEYS, type MessageKey } from '@bogwan/contracts';
import type { FastifyError, FastifyInstance } from 'fastify';
import { hasZodFastifySchemaValidationErrors } from 'fastify-type-provider-zod';
import { AppError } from '../errors.js';
import { isClientAbort, logClientAbort } from './client-abort.js';
import { isMalformedMultipart } from './multipart.js';
import { StorageUnavailableError } from '../storage/blob-store.js';

const KNOWN_KEYS = new Set<string>(MESSAGE_KEYS);

const KEY_BY_STATUS: Record<number, MessageKey> = {
  400: 'invalid_request_message',
  401: 'unauthorized_message',
  403: 'no_access_warning',
  404: 'not_found_message',
  413: 'payload_too_large_message',
  429: 'too_many_requests_message',
};

/**
 * One error model: every failure answers `{statusCode, message}` with a message key.
 * Validation failures carry the rule's key when the schema named one. 5xx answers
 * never carry internals; they are logged with the request id instead.
 */
export function registerErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    if (error instanceof AppError) {
      return reply.code(error.statusCode).send({ statusCode: error.statusCode, message: error.messageKey });
    }
    if (error instanceof StorageUnavailableError) {
      request.log.warn({ err: error }, 'storage unavailable');
      return reply.code(503).send({ statusCode: 503, message: 'storage_unavailable_message' });
    }
    if (isMalformedMultipart(error)) {
      return reply.code(400).send({ statusCode: 400, message: 'multipart_body_invalid' });
    }
    if (hasZodFastifySchemaValidationErrors(error)) {
      const key = error.validation.map((v) => v.message).find((m) => m !== undefined && KNOWN_KEYS.has(m));
      return reply.code(400).send({ statusCode: 400, message: key ?? 'invalid_request_message' });
    }
    const status = typeof error.statusCode === 'number' ? error.statusCode : 500;
    if (status >= 400 && status < 500) {
      return reply.code(status).send({ statusCode: status, message: KEY_BY_STATUS[status] ?? 'invalid_request_message' });
    }
    if (isClientAbort(error, request)) {
      logClientAbort(request);
      return reply.code(400).send({ statusCode: 400, message: 'request_error_message' });
    }
    request.log.error({ err: error }, 'request failed');
    return reply.code(500).send({ statusCode: 500, message: 'request_error_message' });
  });
}
