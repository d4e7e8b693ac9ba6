import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiCalls, type WebhookEvent } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, upload } from './transfer-helpers.js';

interface Hit {
  headers: http.IncomingHttpHeaders;
  body: { id: string; eventId: string; event: string; data: Record<string, unknown> };
}

/** A real HTTP listener on loopback that keeps every delivery it receives; `status` answers each. */
async function listener(status: (n: number) => number = () => 200) {
  const hits: Hit[] = [];
  const server = http.createServer((request, response) => {
    let text = '';
    request.on('data', (piece) => (text += piece));
    request.on('end', () => {
      hits.push({ headers: request.headers, body: JSON.parse(text) });
      response.writeHead(status(hits.length)).end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, hits, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

describeEachDialect('outgoing webhooks deliver each event once on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: { token: string; user: { _id: string } };
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    for (const name of ['Scans', 'Desk']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
    await call(server, apiCalls.webhook_allowed_hosts_update, { token: admin.token, body: { hosts: ['localhost'] } });
    server.app.webhooks.retryDelaysMs = [50, 50];
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await server?.close();
  });

  /** A webhook on a fresh listener; removed (with its log) after the test so the next starts clean. */
  const subscribe = async (events: WebhookEvent[], status?: (n: number) => number) => {
    const target = await listener(status);
    closers.push(target.close);
    const made = await call(server, apiCalls.webhook_outgoing_create, { token: admin.token, body: { url: `http://localhost:${target.port}/hook`, events } });
    expect(made.status).toBe(200);
    closers.push(async () => void (await call(server, apiCalls.webhook_outgoing_delete, { token: admin.token, params: { id: made.body._id } })));
    return { ...target, id: made.body._id };
  };
  /** Trashes a file and waits until its delete event arrived: everything queued before it has been sent by then. */
  const settle = async (target: { hits: Hit[] }, path: string) => {
    await call(server, apiCalls.file_trash, { token: admin.token, body: { paths: [path] } });
    await expect.poll(() => target.hits.some((h) => h.body.event === 'delete'), { timeout: 10_000 }).toBe(true);
  };
  const uploadsOf = (target: { hits: Hit[] }) => target.hits.filter((h) => h.body.event === 'upload');

  it('a file sent to an incoming webhook reaches an outgoing webhook once', async () => {
    const target = await subscribe(['upload', 'delete']);
    const made = await call(server, apiCalls.webhook_create, {
      token: admin.token,
      body: { title: '복합기', token: 'scanner-once', accessToken: 'scanner-once-secret-0123', path: '/Scans' },
    });
    expect(made.status).toBe(200);
    // One small file and one of several chunks.
    for (const [name, data] of [
      ['스캔 1.pdf', Buffer.from('%PDF small')],
      ['스캔 2.pdf', bytesOf(11 * 1024 * 1024, 'scan-2')],
    ] as const) {
      const form = new FormData();
      form.append('file', new Blob([data]), name);
      const res = await call(server, apiCalls.webhook_incoming_call, { token: 'scanner-once-secret-0123', params: { token: 'scanner-once' }, body: form });
      expect(res.status).toBe(200);
    }
    await settle(target, '/Scans/스캔 1.pdf');
    expect(
      uploadsOf(target)
        .map((h) => h.body.data.path)
        .sort(),
    ).toEqual(['/Scans/스캔 1.pdf', '/Scans/스캔 2.pdf']);
    // Each delivery names its event, and no two carry the same one.
    const keys = uploadsOf(target).map((h) => h.headers['idempotency-key']);
    expect(new Set(keys).size).toBe(2);
    for (const hit of uploadsOf(target)) expect(hit.headers['idempotency-key']).toBe(hit.body.eventId);
  });

  it('a browser upload reaches an outgoing webhook once', async () => {
    const target = await subscribe(['upload', 'delete']);
    expect((await upload(server, admin.token, '/Desk', 'report.txt', Buffer.from('hello'))).status).toBe(200);
    await settle(target, '/Desk/report.txt');
    expect(uploadsOf(target)).toHaveLength(1);
  });

  it('the same event queued by two processes at once is delivered once; its retry carries the same key', async () => {
    // The first attempt fails: the retry must be the same delivery with the same idempotency key.
    const target = await subscribe(['share.created'], (n) => (n === 1 ? 503 : 200));
    const queued = await Promise.all(Array.from({ length: 8 }, () => server.app.webhooks.enqueue('share.created', { shareId: 's-1' }, 'share:s-1')));
    expect(queued.reduce((a, b) => a + b, 0)).toBe(1);
    await expect.poll(() => target.hits.length, { timeout: 10_000 }).toBe(2);
    const [first, retry] = target.hits;
    expect(retry!.headers['idempotency-key']).toBe('share:s-1');
    expect(first!.headers['idempotency-key']).toBe('share:s-1');
    expect(retry!.headers['x-bogwan-delivery']).toBe(first!.headers['x-bogwan-delivery']);
    // Queued again later (a retried request, a restarted process): nothing new is sent.
    expect(await server.app.webhooks.enqueue('share.created', { shareId: 's-1' }, 'share:s-1')).toBe(0);
    const log = await call(server, apiCalls.webhook_deliveries, { token: admin.token, params: { id: target.id } });
    expect(log.body.map((d) => [d.status, d.attempts])).toEqual([['delivered', 2]]);
  });

  it('one event goes once to each subscribed webhook, under the same key', async () => {
    const a = await subscribe(['request.state_changed']);
    const b = await subscribe(['request.state_changed']);
    expect(await server.app.webhooks.enqueue('request.state_changed', { requestId: 'r-1' })).toBe(2);
    await expect.poll(() => a.hits.length + b.hits.length, { timeout: 10_000 }).toBe(2);
    expect(a.hits[0]!.headers['idempotency-key']).toBe(b.hits[0]!.headers['idempotency-key']);
    expect(a.hits[0]!.headers['x-bogwan-delivery']).not.toBe(b.hits[0]!.headers['x-bogwan-delivery']);
  });
});
