import type { FastifyInstance } from 'fastify';
import { newId } from '../../ids.js';
import type { AccessLogWriter } from './access-log.writer.js';

const MAX_URL = 2048;
const MAX_AGENT = 512;
/** Query parameters that carry a credential (preview tickets): their values are not kept. */
const SECRET_PARAMS = /([?&](?:ticket)=)[^&#]*/g;

/** The url as the log keeps it: credentials in the query blanked, bounded in length. */
export function loggedUrl(url: string): string {
  return url.replace(SECRET_PARAMS, '$1…').slice(0, MAX_URL);
}

/** Records every request (ip, method, url, status, time, length, agent, user) once answered. */
export function registerAccessLog(app: FastifyInstance, writer: AccessLogWriter): void {
  app.addHook('onResponse', async (request, reply) => {
    const length = reply.getHeader('content-length');
    writer.add({
      id: newId(),
      created_at: new Date().toISOString(),
      ip: request.ip,
      method: request.method,
      url: loggedUrl(request.url),
      status: reply.statusCode,
      response_time_ms: Math.round(reply.elapsedTime * 100) / 100,
      content_length: length === undefined ? null : Number(length),
      user_agent: (request.headers['user-agent'] ?? '').slice(0, MAX_AGENT),
      user_id: request.user?.id ?? null,
    });
  });
}
