import type { FastifyInstance } from 'fastify';

/**
 * With `BOGWAN_LOG_REQUESTS=true`, one JSON line per answered request in the process log
 * (for log shippers); the access_log table records every request either way. The query
 * string is left out: it can carry tickets.
 */
export function registerRequestLog(app: FastifyInstance): void {
  app.addHook('onResponse', async (request, reply) => {
    request.log.info(
      {
        req: { method: request.method, url: request.url.split('?')[0], ip: request.ip },
        res: { statusCode: reply.statusCode },
        policy: request.routeOptions.config.policy?.name,
        responseTime: Math.round(reply.elapsedTime * 10) / 10,
      },
      'request completed',
    );
  });
}
