import http from 'node:http';
import net from 'node:net';

/** One server process behind the proxy. */
export interface Upstream {
  name: string;
  port: number;
}

/** The header with which the proxy says which upstream answered (tests read it). */
export const UPSTREAM_HEADER = 'x-test-upstream';

/**
 * Headers of one connection, not of the message (RFC 9110 §7.6.1): a proxy never passes
 * them on. Forwarding the upstream's `Keep-Alive: timeout=72` would have the client keep an
 * idle connection to the proxy longer than the proxy does, and reuse it as it closes.
 */
const HOP_BY_HOP = new Set(['connection', 'keep-alive', 'proxy-connection', 'te', 'trailer', 'transfer-encoding', 'upgrade']);
const endToEnd = (headers: http.IncomingHttpHeaders) => Object.fromEntries(Object.entries(headers).filter(([name]) => !HOP_BY_HOP.has(name)));

export interface RoundRobinProxy {
  url: string;
  /** The upstreams taking requests, in turn; a test removes one as a load balancer's health check would. */
  readonly pool: Upstream[];
  /** How many requests and WebSocket upgrades each upstream was given, by name. */
  readonly served: Map<string, number>;
  close(): Promise<void>;
}

/**
 * A per-request round-robin load balancer: every request, and every WebSocket upgrade, goes
 * to the next upstream of the pool, whichever connection it came on, and with nothing
 * sticky (no cookie, no address hash). Forwards the client address in `X-Forwarded-For`
 * as a reverse proxy does. A request its upstream cannot take gets 502, as from nginx.
 */
export async function startRoundRobinProxy(upstreams: Upstream[]): Promise<RoundRobinProxy> {
  const pool = [...upstreams];
  const served = new Map<string, number>();
  let turn = 0;
  const next = (): Upstream => {
    if (pool.length === 0) throw new Error('no upstream in the pool');
    const upstream = pool[turn++ % pool.length]!;
    served.set(upstream.name, (served.get(upstream.name) ?? 0) + 1);
    return upstream;
  };
  // Upgraded connections leave the HTTP server's books: kept here so closing ends them.
  const tunnels = new Set<net.Socket>();
  const forwardedFor = (req: http.IncomingMessage) => [req.headers['x-forwarded-for'], req.socket.remoteAddress].filter(Boolean).join(', ');

  const server = http.createServer((req, res) => {
    let upstream: Upstream;
    try {
      upstream = next();
    } catch {
      res.writeHead(503).end();
      return;
    }
    const outgoing = http.request(
      {
        host: '127.0.0.1',
        port: upstream.port,
        method: req.method,
        path: req.url,
        headers: { ...endToEnd(req.headers), 'x-forwarded-for': forwardedFor(req) },
        // A fresh connection per request: nothing ties a client to one process.
        agent: false,
      },
      (answer) => {
        res.writeHead(answer.statusCode ?? 502, { ...endToEnd(answer.headers), [UPSTREAM_HEADER]: upstream.name });
        answer.pipe(res);
        answer.on('error', () => res.destroy());
      },
    );
    outgoing.on('error', () => {
      // An upstream that answered before reading the whole body (a refusal) closes its
      // side: its answer still goes to the client, and the rest of the body is dropped.
      req.unpipe(outgoing);
      req.resume();
      if (!res.headersSent) res.writeHead(502, { [UPSTREAM_HEADER]: upstream.name }).end();
    });
    req.on('error', () => outgoing.destroy());
    req.pipe(outgoing);
  });

  server.on('upgrade', (req: http.IncomingMessage, client: net.Socket, head: Buffer) => {
    let upstream: Upstream;
    try {
      upstream = next();
    } catch {
      client.destroy();
      return;
    }
    const upstreamSocket = net.connect(upstream.port, '127.0.0.1', () => {
      const lines = [`${req.method} ${req.url} HTTP/${req.httpVersion}`];
      for (let i = 0; i < req.rawHeaders.length; i += 2) {
        if (req.rawHeaders[i]!.toLowerCase() !== 'x-forwarded-for') lines.push(`${req.rawHeaders[i]}: ${req.rawHeaders[i + 1]}`);
      }
      lines.push(`X-Forwarded-For: ${forwardedFor(req)}`);
      upstreamSocket.write(`${lines.join('\r\n')}\r\n\r\n`);
      if (head.length > 0) upstreamSocket.write(head);
      upstreamSocket.pipe(client);
      client.pipe(upstreamSocket);
    });
    tunnels.add(client).add(upstreamSocket);
    upstreamSocket.on('error', () => client.destroy());
    client.on('error', () => upstreamSocket.destroy());
    upstreamSocket.on('close', () => client.destroy());
    client.on('close', () => {
      upstreamSocket.destroy();
      tunnels.delete(client);
      tunnels.delete(upstreamSocket);
    });
  });

  // Idle client connections are closed by the client, never under it: a proxy that closes
  // one just as the client sends on it resets that request (a busy test process, with many
  // idle connections left by a burst, hit it). Load balancers keep idle connections for a
  // minute or more; the client's pool gives them up after seconds.
  server.keepAliveTimeout = 0;
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  return {
    url: `http://127.0.0.1:${port}`,
    pool,
    served,
    close: async () => {
      for (const socket of tunnels) socket.destroy();
      server.closeAllConnections();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
