import crypto from 'node:crypto';
import http from 'node:http';
import type { AddressInfo, Socket } from 'node:net';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../config.js';
import type { Db } from '../db/index.js';
import { unauthorized } from '../errors.js';
import type { RoutePolicy } from '../http/policy.js';
import { ServerMetrics } from './metrics.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Where the separate metrics listener listens, once it does (null when there is none). */
    metricsAddress: () => Promise<AddressInfo | null>;
  }
}

const policy: RoutePolicy = {
  category: 'system',
  name: 'metrics',
  description: 'Prometheus metrics, with the bearer token BOGWAN_METRICS_TOKEN (only when it is set)',
  level: 0,
  licenceExempt: true,
};

/** Compares a presented bearer token with the configured one in constant time. */
function bearerMatches(header: string | undefined, token: string): boolean {
  const presented = /^Bearer (.+)$/i.exec(header ?? '')?.[1] ?? '';
  const digest = (value: string) => crypto.createHash('sha256').update(value).digest();
  return crypto.timingSafeEqual(digest(presented), digest(token));
}

/**
 * `/metrics` in the Prometheus text format, off by default. `BOGWAN_METRICS_PORT` opens a
 * listener of its own (on `BOGWAN_METRICS_HOST`, loopback unless told); `BOGWAN_METRICS_TOKEN`
 * serves it on the main port to holders of the token (and requires it on that listener too).
 */
export async function registerMetrics(app: FastifyInstance, deps: { config: Config; db: Db }): Promise<void> {
  const { port, host, token } = deps.config.metrics;
  let listening: Promise<AddressInfo | null> = Promise.resolve(null);
  app.decorate('metricsAddress', () => listening);
  if (port === undefined && token === undefined) return;

  const metrics = new ServerMetrics(deps.db);
  const started = new WeakMap<object, { socket: Socket; read: number; written: number }>();
  app.addHook('onRequest', async (request) => {
    const socket = request.raw.socket;
    started.set(request.raw, { socket, read: socket.bytesRead, written: socket.bytesWritten });
  });
  app.addHook('onResponse', async (request, reply) => {
    const start = started.get(request.raw);
    if (!start) return;
    // A declared body length is exact; a streamed (chunked) one is what the socket read since the request began.
    const declared = Number(request.headers['content-length']);
    const bytesIn = Number.isFinite(declared) && declared > 0 ? declared : start.socket.bytesRead - start.read;
    metrics.observe(request, reply, bytesIn, start.socket.bytesWritten - start.written);
  });

  if (token !== undefined) {
    app.get('/metrics', { config: { policy } }, async (request, reply) => {
      if (!bearerMatches(request.headers.authorization, token)) throw unauthorized();
      return reply
        .header('content-type', metrics.registry.contentType)
        .header('cache-control', 'no-store')
        .send(await metrics.registry.metrics());
    });
  }

  if (port !== undefined) {
    const server = http.createServer((req, res) => {
      const pathname = (req.url ?? '/').split('?')[0];
      if (req.method !== 'GET' || pathname !== '/metrics') {
        res.writeHead(404, { 'content-type': 'text/plain' }).end('not found\n');
        return;
      }
      if (token !== undefined && !bearerMatches(req.headers.authorization, token)) {
        res.writeHead(401, { 'content-type': 'text/plain', 'www-authenticate': 'Bearer' }).end('unauthorized\n');
        return;
      }
      metrics.registry.metrics().then(
        (text) => res.writeHead(200, { 'content-type': metrics.registry.contentType, 'cache-control': 'no-store' }).end(text),
        (error: unknown) => {
          app.log.error({ err: error }, 'metrics scrape failed');
          res.writeHead(500, { 'content-type': 'text/plain' }).end('metrics failed\n');
        },
      );
    });
    let opened!: (address: AddressInfo) => void;
    listening = new Promise((resolve) => {
      opened = resolve;
    });
    // Opened with the main port, so a server that never listens (built for `inject`) opens nothing.
    app.addHook('onListen', async () => {
      await new Promise<void>((resolve, reject) => {
        server.once('error', reject);
        server.listen(port, host, () => {
          server.off('error', reject);
          const address = server.address() as AddressInfo;
          app.log.info({ metrics: `http://${host}:${address.port}/metrics` }, 'metrics listener open');
          opened(address);
          resolve();
        });
      });
    });
    app.addHook('onClose', async () => {
      if (server.listening) await new Promise<void>((resolve) => server.close(() => resolve()));
      server.closeAllConnections();
    });
  }
}
