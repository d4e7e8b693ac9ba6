// What the webhook tests share: a server with folders and accounts, and a local receiver for outgoing deliveries.
import { createHmac } from 'node:crypto';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiCalls } from '@bogwan/contracts';
import { signInAs } from './files-helpers.js';
import { call, type Dialect, setupMaster, startServer } from './harness.js';

/** A server with the master, an ADMIN and a USER signed in, folders Inbox, Other and Inbox/sub, and retries 50 ms apart. */
export async function startWebhookServer(dialect: Dialect) {
  const server = await startServer(dialect);
  const master = await setupMaster(server);
  const admin = await signInAs(server, 'admin@example.com', 'ADMIN');
  const user = await signInAs(server, 'user@example.com', 'USER');
  for (const [name, path] of [
    ['Inbox', '/'],
    ['Other', '/'],
    ['sub', '/Inbox'],
  ]) {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: name!, path: path! } });
  }
  server.app.webhooks.retryDelaysMs = [50, 50];
  return { server, master, admin, user };
}

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver; `answer` decides each status (and an optional redirect). */
export async function receiver(answer: (n: number) => { status: number; location?: string } = () => ({ status: 200 })) {
  const received: Received[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (piece) => (body += piece));
    request.on('end', () => {
      received.push({ headers: request.headers, body });
      const { status, location } = answer(received.length);
      response.writeHead(status, location ? { location } : {});
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const port = (server.address() as AddressInfo).port;
  return { port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

export function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const mac = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  return mac === parts.v1 && Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;
}
