import { STATUS_CODES } from 'node:http';
import type { FastifyError, FastifyReply, FastifyRequest } from 'fastify';
import { DAV_PREFIX } from './dav-paths.js';

/**
 * Fastify's `frameworkErrors`: the answers for what fails before any route is found, chiefly a
 * URL whose percent escapes do not decode (`%E0%A4%A`, `%zz`). Under `/dav` the answer is the
 * WebDAV one (the status and a plain text body, as the DAV routes answer a 400 of their own:
 * no API JSON to a WebDAV client); elsewhere the body Fastify sends without this option, unchanged.
 */
export function answerFrameworkError(error: FastifyError, request: FastifyRequest, reply: FastifyReply): void {
  const status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 600 ? error.statusCode : 400;
  const url = request.raw.url ?? '';
  if (url === DAV_PREFIX || url.startsWith(`${DAV_PREFIX}/`) || url.startsWith(`${DAV_PREFIX}?`)) {
    // A body left unread: the connection ends with the answer (as the DAV error handler does).
    if (!request.raw.complete) reply.header('connection', 'close');
    void reply.code(status).header('cache-control', 'no-store').header('content-type', 'text/plain; charset=utf-8').send(`${status}\n`);
    return;
  }
  const body = JSON.stringify({ error: STATUS_CODES[status] ?? 'Bad Request', code: error.code, message: error.message, statusCode: status });
  void reply.code(status).header('content-type', 'application/json').send(body);
}
