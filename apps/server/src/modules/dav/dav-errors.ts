import type { FastifyError, FastifyInstance } from 'fastify';
import { AppError } from '../../errors.js';
import { StorageUnavailableError } from '../../storage/blob-store.js';
import { DavLockRefusal } from './locks/dav-locks.js';
import { DAV_NS, XmlError, elementXml } from './xml.js';
import { isClientAbort, logClientAbort } from '../../http/client-abort.js';

/** The realm clients show when they ask for the app password. */
export const BASIC_CHALLENGE = 'Basic realm="Bogwan", charset="UTF-8"';

/**
 * A WebDAV answer that is an error: a status and, where RFC 4918 names one, the
 * precondition or postcondition element the `<D:error>` body carries.
 */
export class DavError extends Error {
  constructor(
    readonly status: number,
    /** XML of the condition inside `<D:error>` (e.g. `<D:propfind-finite-depth/>`). */
    readonly condition?: string,
  ) {
    super(`WebDAV ${status}`);
    this.name = 'DavError';
  }
}

/** The `<D:error>` body of a condition element of the DAV: namespace. */
export function davCondition(local: string, content = ''): string {
  return elementXml(DAV_NS, local, content);
}

/** Status codes the API's message keys map to on WebDAV (the rest keep their status). */
const STATUS_BY_KEY: Partial<Record<string, number>> = {
  // The volume is full: RFC 4918 11.5.
  volume_exceeded_warning: 507,
  // A collection moved or copied into itself (RFC 4918 9.8.5: 403).
  move_into_itself_warning: 403,
};

/**
 * Every failure on a WebDAV route answers a status and, for conditions, a `<D:error>`
 * body; never the API's JSON. 401 carries the Basic challenge. 5xx are logged.
 */
export function registerDavErrorHandler(app: FastifyInstance): void {
  app.setErrorHandler((error: FastifyError, request, reply) => {
    let status: number;
    let condition: string | undefined;
    if (error instanceof DavLockRefusal) {
      reply.code(error.status).header('cache-control', 'no-store');
      if (!request.raw.complete) reply.header('connection', 'close');
      if (!error.body) return reply.header('content-type', 'text/plain; charset=utf-8').send(`${error.status}\n`);
      return reply.header('content-type', 'application/xml; charset=utf-8').send(error.body);
    }
    if (error instanceof DavError) {
      status = error.status;
      condition = error.condition;
      const size = (error as DavError & { size?: number }).size;
      if (status === 416 && size !== undefined) reply.header('content-range', `bytes */${size}`);
    } else if (error instanceof AppError) {
      status = STATUS_BY_KEY[error.messageKey] ?? error.statusCode;
      if (error.messageKey === 'too_many_requests_message') status = 429;
    } else if (error instanceof XmlError) {
      status = 400;
    } else if (error instanceof StorageUnavailableError) {
      request.log.warn({ err: error }, 'storage unavailable');
      status = 503;
    } else {
      status = typeof error.statusCode === 'number' && error.statusCode >= 400 && error.statusCode < 500 ? error.statusCode : 500;
    }
    if (status >= 500 && isClientAbort(error, request)) logClientAbort(request);
    else if (status >= 500 && status !== 502 && status !== 503 && status !== 507) request.log.error({ err: error }, 'WebDAV request failed');
    if (status === 401) reply.header('www-authenticate', BASIC_CHALLENGE);
    // A body left unread (refused before or while it was read): the connection ends with the
    // answer, so the rest of the body is not taken for the next request on it.
    if (!request.raw.complete) reply.header('connection', 'close');
    reply.code(status).header('cache-control', 'no-store');
    if (condition) {
      return reply
        .header('content-type', 'application/xml; charset=utf-8')
        .send(`<?xml version="1.0" encoding="utf-8"?>\n<D:error xmlns:D="DAV:">${condition}</D:error>`);
    }
    return reply.header('content-type', 'text/plain; charset=utf-8').send(`${status}\n`);
  });
}
