import type { FastifyRequest } from 'fastify';

const ABORT_CODES = new Set(['ECONNRESET', 'ECONNABORTED', 'EPIPE', 'ERR_STREAM_PREMATURE_CLOSE']);

/**
 * True when a request failed because its client went away (a cancelled or cut upload):
 * nothing for an operator to act on, so it is logged at info, not as an error.
 */
export function isClientAbort(error: unknown, request: FastifyRequest): boolean {
  const { code, message } = (error ?? {}) as { code?: unknown; message?: unknown };
  const gone = request.raw.destroyed || request.raw.socket?.destroyed === true;
  return gone && ((typeof code === 'string' && ABORT_CODES.has(code)) || message === 'aborted');
}

/** The info line of an aborted request: what was cut, without the query (it can carry tickets). */
export function logClientAbort(request: FastifyRequest): void {
  request.log.info(
    {
      req: { method: request.method, url: request.url.split('?')[0] },
      policy: request.routeOptions.config.policy?.name,
      bytesRead: request.raw.socket?.bytesRead,
    },
    'client aborted the request',
  );
}
