import { createHmac } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiCalls, type IncomingWebhookCreate } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createPlan, repoDir, runPlan } from './snapshots-helpers.js';
import { bytesOf, fetchBytes, sha256 } from './transfer-helpers.js';
import { recordsOf } from './audit-actions-helpers.js';

interface Received {
  headers: http.IncomingHttpHeaders;
  body: string;
}

/** A local HTTP receiver; `answer` decides each status (and an optional redirect). */
async function receiver(answer: (n: number) => { status: number; location?: string } = () => ({ status: 200 })) {
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

function verify(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  const mac = createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex');
  return mac === parts.v1 && Math.abs(Date.now() / 1000 - Number(parts.t)) < 300;
}

describeEachDialect('webhooks on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: { token: string; user: { _id: string } };
  let user: { token: string; user: { _id: string } };
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com', 'USER');
    for (const [name, path] of [
      ['Inbox', '/'],
      ['Other', '/'],
      ['sub', '/Inbox'],
    ]) {
      await call(server, apiCalls.folder_create, { token: master.token, body: { name: name!, path: path! } });
    }
    server.app.webhooks.retryDelaysMs = [50, 50];
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await server?.close();
  });

  const createIncoming = (body: IncomingWebhookCreate) => call(server, apiCalls.webhook_create, { token: admin.token, body });
  const refuseIncoming = (body: IncomingWebhookCreate) => callRefused(server, apiCalls.webhook_create, { token: admin.token, body });
  /** A call of the incoming webhook `token`: the file (and a folder under the webhook's) as a form, the access token as the bearer. */
  const incoming = (token: string, accessToken: string | undefined, data: Buffer, name: string, path?: string) => {
    const form = new FormData();
    if (path !== undefined) form.append('path', path);
    form.append('file', new Blob([data]), name);
    return { token: accessToken, params: { token }, body: form };
  };
  const deliver = (...args: Parameters<typeof incoming>) => call(server, apiCalls.webhook_incoming_call, incoming(...args));
  const refuse = (...args: Parameters<typeof incoming>) => callRefused(server, apiCalls.webhook_incoming_call, incoming(...args));
  /** The webhook calls in the audit trail, each as `action reason target refusal`. */
  const activity = async () =>
    (await recordsOf(server, { actions: ['webhook.call', 'webhook.refused'] })).map((r) =>
      [r.action, r.reason ?? '-', r.targetPath ?? '-', typeof r.params.refusal === 'string' ? r.params.refusal : '-'].join(' '),
    );

  it('refuses every webhook administration call to a USER', async () => {
    const token = user.token;
    const id = 'some-id';
    const calls: [string, string, () => ReturnType<typeof callRefused>][] = [
      ['GET', '/api/webhooks', () => callRefused(server, apiCalls.webhook_list, { token })],
      [
        'POST',
        '/api/webhooks',
        () => callRefused(server, apiCalls.webhook_create, { token, body: { token: 'abcdefgh', accessToken: 'x'.repeat(20), path: '/Inbox' } }),
      ],
      ['DELETE', '/api/webhooks/some-id', () => callRefused(server, apiCalls.webhook_delete, { token, params: { id } })],
      ['GET', '/api/webhooks/outgoing', () => callRefused(server, apiCalls.webhook_outgoing_list, { token })],
      [
        'POST',
        '/api/webhooks/outgoing',
        () => callRefused(server, apiCalls.webhook_outgoing_create, { token, body: { url: 'https://example.com/hook', events: ['upload'] } }),
      ],
      ['DELETE', '/api/webhooks/outgoing/some-id', () => callRefused(server, apiCalls.webhook_outgoing_delete, { token, params: { id } })],
      ['GET', '/api/webhooks/outgoing/some-id/deliveries', () => callRefused(server, apiCalls.webhook_deliveries, { token, params: { id } })],
      ['GET', '/api/webhooks/allowed-hosts', () => callRefused(server, apiCalls.webhook_allowed_hosts, { token })],
      ['PUT', '/api/webhooks/allowed-hosts', () => callRefused(server, apiCalls.webhook_allowed_hosts_update, { token, body: { hosts: ['localhost'] } })],
    ];
    for (const [method, url, refuseCall] of calls) {
      const res = await refuseCall();
      expect([method, url, res.status]).toEqual([method, url, 403]);
    }
  });

  it('creates incoming webhooks only with a token, an access token and an existing folder', async () => {
    // Raw: a body without a field the contract requires.
    const missing = await server.request('POST', '/api/webhooks', { token: admin.token, body: { accessToken: 'a'.repeat(20), path: '/Inbox' } });
    expect([missing.status, missing.body.message]).toEqual([400, 'webhook_token_pattern']);
    const short = await refuseIncoming({ token: 'scanner-01', accessToken: 'short', path: '/Inbox' });
    expect([short.status, short.body.message]).toEqual([400, 'webhook_access_token_length']);
    // Raw: a body without a field the contract requires.
    const noPath = await server.request('POST', '/api/webhooks', { token: admin.token, body: { token: 'scanner-01', accessToken: 'a'.repeat(20) } });
    expect([noPath.status, noPath.body.message]).toEqual([400, 'invalid_path']);
    const gone = await refuseIncoming({ token: 'scanner-01', accessToken: 'a'.repeat(20), path: '/Nowhere' });
    expect(gone.status).toBe(404);
    const made = await createIncoming({
      title: '스캐너',
      description: '복합기 스캔',
      token: 'scanner-01',
      accessToken: 'scanner-secret-0123456789',
      path: '/Inbox',
      userId: user.user._id,
      userEmail: 'someone@else',
    });
    expect(made.status).toBe(200);
    expect(made.body).toEqual({
      _id: expect.any(String),
      title: '스캐너',
      description: '복합기 스캔',
      url: `${server.url}/api/webhooks/incoming/scanner-01`,
      token: 'scanner-01',
      path: '/Inbox',
      createdAt: expect.any(String),
      userId: admin.user._id,
      userEmail: 'admin@example.com',
    });
    const taken = await refuseIncoming({ token: 'scanner-01', accessToken: 'b'.repeat(20), path: '/Other' });
    expect([taken.status, taken.body.message]).toEqual([409, 'webhook_token_taken']);
    const list = await call(server, apiCalls.webhook_list, { token: master.token });
    expect(list.body).toHaveLength(1);
    expect(JSON.stringify(list.body)).not.toContain('scanner-secret');
  });

  it('uploads a file sent with the right access token into its folder, as its creator', async () => {
    const data = bytesOf(12 * 1024 * 1024 + 7, 'scan-1');
    const res = await deliver('scanner-01', 'scanner-secret-0123456789', data, '스캔 1.pdf');
    expect({ status: res.status, body: res.body }).toEqual({ status: 200, body: { success: true, path: '/Inbox/스캔 1.pdf', size: data.length } });
    const got = await fetchBytes(server, admin.token, `/api/file/download?path=${encodeURIComponent('/Inbox/스캔 1.pdf')}`);
    expect(sha256(got.bytes)).toBe(sha256(data));
    const node = await server.app.fileTree.resolve('/Inbox/스캔 1.pdf');
    expect(node?.owner_id).toBe(admin.user._id);
    const inside = await deliver('scanner-01', 'scanner-secret-0123456789', Buffer.from('hello'), 'note.txt', '/Inbox/sub');
    expect(inside).toMatchObject({ status: 200, body: { path: '/Inbox/sub/note.txt' } });
    expect(await activity()).toEqual(expect.arrayContaining(['webhook.call - /Inbox/스캔 1.pdf -']));
    // The upload is the webhook's: its record names the webhook (for its creator) as the actor.
    const uploaded = (await recordsOf(server, { actions: ['file.upload'] })).find((r) => r.targetPath === '/Inbox/스캔 1.pdf');
    expect(uploaded).toMatchObject({ actorKind: 'webhook', actorAccountId: admin.user._id, params: { size: data.length } });
  });

  it('refuses a wrong or missing access token, an unknown token, and paths outside its folder', async () => {
    const before = (await call(server, apiCalls.file_list, { token: admin.token, query: { path: '/Inbox' } })).body.total;
    for (const [token, access] of [
      ['scanner-01', 'scanner-secret-0123456780'],
      ['scanner-01', undefined],
      ['no-such-hook', 'scanner-secret-0123456789'],
    ] as const) {
      const res = await refuse(token, access, Buffer.from('x'), 'x.txt');
      expect([res.status, res.body.message]).toEqual([401, 'webhook_token_invalid']);
    }
    const outside = await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), 'x.txt', '/Other');
    expect([outside.status, outside.body.message]).toEqual([403, 'no_access_warning']);
    const beside = await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), 'x.txt', '/Inbox2');
    expect(beside.status).toBe(403);
    const dots = await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), 'x.txt', '/Inbox/../Other');
    expect([dots.status, dots.body.message]).toEqual([400, 'invalid_path']);
    expect((await call(server, apiCalls.file_list, { token: admin.token, query: { path: '/Inbox' } })).body.total).toBe(before);
    expect((await call(server, apiCalls.file_list, { token: admin.token, query: { path: '/Other' } })).body.total).toBe(0);
    const log = await activity();
    expect(log).toContain('webhook.refused webhook_token_invalid /Inbox wrong_access_token');
    expect(log).toContain('webhook.refused webhook_token_invalid - unknown_token');
    expect(log).toContain('webhook.refused no_access_warning /Inbox -');
  });

  it('acts with its creator\u2019s standing: a blocked creator and a full volume refuse the file', async () => {
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/Inbox', volume: 1024 } });
    const full = await refuse('scanner-01', 'scanner-secret-0123456789', bytesOf(2048, 'too-big'), 'big.bin');
    expect([full.status, full.body.message]).toEqual([413, 'volume_exceeded_warning']);
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/Inbox', volume: null } });
    await server.app.db.updateTable('users').set({ status: 'BLOCK' }).where('id', '=', admin.user._id).execute();
    const blocked = await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), 'blocked.txt');
    expect(blocked.status).toBe(403);
    await server.app.db.updateTable('users').set({ status: 'ACTIVE' }).where('id', '=', admin.user._id).execute();
  });

  it('answers a wrong access token at once and closes the connection without reading the body', async () => {
    await server.app.incomingWebhooks.refusalsPerIp.reset('127.0.0.1');
    const { hostname, port } = new URL(server.url);
    const boundary = 'bogwan-boundary';
    // A 512 MiB upload is announced; only its first 64 KiB are ever sent.
    const outcome = await new Promise<{ status: number; connection: string | undefined; closed: boolean }>((resolve) => {
      const request = http.request({
        host: hostname,
        port,
        method: 'POST',
        path: '/api/webhooks/incoming/scanner-01',
        headers: {
          authorization: 'Bearer scanner-secret-0123456780',
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': 512 * 1024 * 1024,
        },
      });
      let status = 0;
      let connection: string | undefined;
      const done = (closed: boolean) => resolve({ status, connection, closed });
      const giveUp = setTimeout(() => {
        done(false);
        request.destroy();
      }, 5000);
      request.on('response', (response) => {
        status = response.statusCode ?? 0;
        connection = response.headers.connection;
        response.resume();
      });
      request.on('socket', (socket) =>
        socket.on('close', () => {
          clearTimeout(giveUp);
          done(true);
        }),
      );
      request.on('error', () => {});
      request.write(`--${boundary}\r\nContent-Disposition: form-data; name="file"; filename="big.bin"\r\n\r\n`);
      request.write(Buffer.alloc(64 * 1024));
    });
    expect(outcome).toEqual({ status: 401, connection: 'close', closed: true });
    await server.app.incomingWebhooks.refusalsPerIp.reset('127.0.0.1');
  });

  it('takes at most 30 calls a minute per webhook, and logs the refused ones', async () => {
    const limiter = server.app.incomingWebhooks.perToken;
    await limiter.reset('scanner-01');
    const answers: number[] = [];
    // Into a folder it may not write: each call is admitted, counted and refused cheaply.
    for (let i = 0; i < 31; i++) answers.push((await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), `n${i}.txt`, '/Other')).status);
    expect(answers.slice(0, 30).every((s) => s === 403)).toBe(true);
    expect(answers[30]).toBe(429);
    expect((await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), 'late.txt')).status).toBe(429);
    expect((await activity()).filter((m) => m === 'webhook.refused too_many_requests_message /Inbox -')).toHaveLength(2);
    await limiter.reset('scanner-01');
  });

  it('slows down an address that keeps guessing tokens, and logs every call it refuses', async () => {
    await server.app.incomingWebhooks.refusalsPerIp.reset('127.0.0.1');
    // An address over its refusals: no webhook named, only the address.
    const blockedLog = 'webhook.refused too_many_requests_message - -';
    const answers: number[] = [];
    for (let i = 0; i < 11; i++) answers.push((await refuse('guess-000' + i, 'nope-nope-nope-nope', Buffer.from('x'), 'x.txt')).status);
    expect(answers.slice(0, 10).every((s) => s === 401)).toBe(true);
    expect(answers[10]).toBe(429);
    // Even the right token waits until the window ends.
    expect((await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), 'late.txt')).status).toBe(429);
    expect((await activity()).filter((m) => m === blockedLog)).toHaveLength(2);
    await server.app.incomingWebhooks.refusalsPerIp.reset('127.0.0.1');
  });

  it('deletes an incoming webhook; its URL stops working', async () => {
    const list = await call(server, apiCalls.webhook_list, { token: admin.token });
    const id = list.body[0]!._id;
    expect((await call(server, apiCalls.webhook_delete, { token: admin.token, params: { id } })).body).toEqual({ success: true });
    expect((await callRefused(server, apiCalls.webhook_delete, { token: admin.token, params: { id } })).status).toBe(404);
    expect((await refuse('scanner-01', 'scanner-secret-0123456789', Buffer.from('x'), 'x.txt')).status).toBe(401);
  });

  it('refuses outgoing targets on loopback, private, link-local and metadata addresses', async () => {
    const local = await receiver();
    closers.push(local.close);
    for (const url of [
      'http://127.0.0.1/hook',
      'http://[::ffff:7f00:1]/hook',
      'http://169.254.169.254/latest/meta-data',
      'http://[::1]:8080/',
      'http://0x7f000001/',
      'http://10.0.0.8/',
      'http://[64:ff9b::a9fe:a9fe]/',
      'http://[2002:7f00:1::1]/',
      `http://localhost:${local.port}/hook`,
    ]) {
      const res = await callRefused(server, apiCalls.webhook_outgoing_create, { token: admin.token, body: { url, events: ['upload'] } });
      expect([url, res.status, res.body.message]).toEqual([url, 400, 'webhook_target_refused']);
    }
    const ftp = await callRefused(server, apiCalls.webhook_outgoing_create, { token: admin.token, body: { url: 'ftp://example.com/', events: ['upload'] } });
    expect([ftp.status, ftp.body.message]).toEqual([400, 'webhook_url_invalid']);
    const none = await callRefused(server, apiCalls.webhook_outgoing_create, { token: admin.token, body: { url: 'https://example.com/', events: [] } });
    expect([none.status, none.body.message]).toEqual([400, 'webhook_events_required']);
    expect(local.received).toEqual([]);
  });

  it('delivers signed upload and delete events to an allowed host, retrying a failed attempt', async () => {
    const target = await receiver((n) => ({ status: n === 1 ? 500 : 200 }));
    closers.push(target.close);
    const allowed = await call(server, apiCalls.webhook_allowed_hosts_update, { token: admin.token, body: { hosts: ['LOCALHOST'] } });
    expect(allowed.body).toEqual({ hosts: ['localhost'] });
    const made = await call(server, apiCalls.webhook_outgoing_create, {
      token: admin.token,
      body: { title: 'Audit', url: `http://localhost:${target.port}/hook`, events: ['upload', 'delete'] },
    });
    expect(made.status).toBe(200);
    expect(made.body.secret).toMatch(/^whsec_/);
    const secret: string = made.body.secret;
    expect((await call(server, apiCalls.webhook_outgoing_list, { token: admin.token })).body[0]).not.toHaveProperty('secret');

    const uploaded = await call(server, apiCalls.file_upload, {
      token: admin.token,
      body: (() => {
        const f = new FormData();
        for (const [k, v] of Object.entries({ fileName: 'report.txt', path: '/Other', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: '5' }))
          f.append(k, v);
        f.append('file', new Blob([Buffer.from('hello')]), 'blob');
        return f;
      })(),
    });
    expect(uploaded.status).toBe(200);
    await expect.poll(() => target.received.length, { timeout: 5000 }).toBe(2);
    for (const hit of target.received) {
      expect(hit.headers['x-bogwan-event']).toBe('upload');
      expect(verify(secret, String(hit.headers['x-bogwan-signature']), hit.body)).toBe(true);
      expect(verify('whsec_wrong', String(hit.headers['x-bogwan-signature']), hit.body)).toBe(false);
    }
    const payload = JSON.parse(target.received[1]!.body);
    expect(payload).toMatchObject({ event: 'upload', data: { path: '/Other/report.txt', size: 5, userId: admin.user._id } });
    // Beside the machine fields, the event in Korean, worded as the notification bell words it.
    expect(payload.text).toBe('/Other에 report.txt 파일을 업로드했습니다');
    expect(target.received[0]!.headers['x-bogwan-delivery']).toBe(payload.id);

    await call(server, apiCalls.file_trash, { token: admin.token, body: { paths: ['/Other/report.txt'] } });
    await expect.poll(() => target.received.length, { timeout: 5000 }).toBe(3);
    expect(JSON.parse(target.received[2]!.body)).toMatchObject({
      event: 'delete',
      text: '휴지통으로 이동: /Other/report.txt',
      data: { paths: ['/Other/report.txt'] },
    });

    const log = await call(server, apiCalls.webhook_deliveries, { token: admin.token, params: { id: made.body._id } });
    expect(log.body.map((d) => [d.event, d.status, d.attempts, d.responseStatus])).toEqual([
      ['delete', 'delivered', 1, 200],
      ['upload', 'delivered', 2, 200],
    ]);
  });

  it('does not follow a redirect into a loopback address, and gives up after the last retry', async () => {
    const inner = await receiver();
    closers.push(inner.close);
    const redirecting = await receiver(() => ({ status: 302, location: `http://127.0.0.1:${inner.port}/internal` }));
    closers.push(redirecting.close);
    const made = await call(server, apiCalls.webhook_outgoing_create, {
      token: admin.token,
      body: { url: `http://localhost:${redirecting.port}/hook`, events: ['delete'] },
    });
    expect(made.status).toBe(200);
    await server.app.webhooks.enqueue('delete', { paths: ['/x'] });
    await expect
      .poll(async () => (await call(server, apiCalls.webhook_deliveries, { token: admin.token, params: { id: made.body._id } })).body[0]?.status, {
        timeout: 5000,
      })
      .toBe('failed');
    const [delivery] = (await call(server, apiCalls.webhook_deliveries, { token: admin.token, params: { id: made.body._id } })).body;
    expect(delivery).toMatchObject({ attempts: 3, responseStatus: 302, error: 'redirect target refused', nextAttemptAt: null });
    expect(redirecting.received).toHaveLength(3);
    expect(inner.received).toEqual([]);
    expect((await call(server, apiCalls.webhook_outgoing_delete, { token: admin.token, params: { id: made.body._id } })).body).toEqual({ success: true });
    expect((await callRefused(server, apiCalls.webhook_outgoing_delete, { token: admin.token, params: { id: made.body._id } })).status).toBe(404);
  });

  it('allows host names only: an IP address is refused as an allowed host and never skips the address check', async () => {
    const before = (await call(server, apiCalls.webhook_allowed_hosts, { token: admin.token })).body;
    for (const host of ['127.0.0.1', '[::1]', '2130706433', '0x7f000001', '10.0.0.8', 'localhost.127']) {
      const res = await callRefused(server, apiCalls.webhook_allowed_hosts_update, { token: admin.token, body: { hosts: ['localhost', host] } });
      expect([host, res.status, res.body.message]).toEqual([host, 400, 'webhook_allowed_host_ip']);
    }
    expect((await call(server, apiCalls.webhook_allowed_hosts, { token: admin.token })).body).toEqual(before);
    const inner = await receiver();
    closers.push(inner.close);
    // An address saved as allowed before this check existed still opens nothing.
    await server.app.webhooks.setAllowedHosts(['localhost', '127.0.0.1']);
    try {
      const res = await callRefused(server, apiCalls.webhook_outgoing_create, {
        token: admin.token,
        body: { url: `http://127.0.0.1:${inner.port}/hook`, events: ['upload'] },
      });
      expect([res.status, res.body.message]).toEqual([400, 'webhook_target_refused']);
      expect(inner.received).toEqual([]);
    } finally {
      await server.app.webhooks.setAllowedHosts(before.hosts);
    }
  });

  it('gives up an attempt at its deadline even while the target keeps trickling its answer', async () => {
    const cut: number[] = [];
    let requests = 0;
    const trickler = http.createServer((request, response) => {
      requests += 1;
      request.resume();
      request.on('end', () => {
        response.writeHead(200);
        const drip = setInterval(() => response.write('.'), 50);
        response.on('close', () => {
          clearInterval(drip);
          cut.push(Date.now());
        });
      });
    });
    await new Promise<void>((resolve) => trickler.listen(0, '127.0.0.1', resolve));
    closers.push(() => new Promise<void>((resolve) => trickler.close(() => resolve())));
    const port = (trickler.address() as AddressInfo).port;
    server.app.webhooks.attemptDeadlineMs = 400;
    await server.app.webhooks.setAllowedHosts(['localhost']);
    try {
      const made = await call(server, apiCalls.webhook_outgoing_create, {
        token: admin.token,
        body: { url: `http://localhost:${port}/slow`, events: ['request.state_changed'] },
      });
      expect(made.status).toBe(200);
      await server.app.webhooks.enqueue('request.state_changed', { requestId: 'r1' });
      const deliveries = async () => (await call(server, apiCalls.webhook_deliveries, { token: admin.token, params: { id: made.body._id } })).body;
      await expect.poll(async () => (await deliveries())[0]?.status, { timeout: 8000 }).toBe('failed');
      expect((await deliveries())[0]).toMatchObject({ attempts: 3, error: 'timed out' });
      // Each attempt's connection was cut by the sender, not left to run.
      expect(requests).toBe(3);
      await expect.poll(() => cut.length, { timeout: 2000 }).toBe(3);
      await call(server, apiCalls.webhook_outgoing_delete, { token: admin.token, params: { id: made.body._id } });
    } finally {
      server.app.webhooks.attemptDeadlineMs = 15_000;
    }
  });

  it('tells subscribers of every finished snapshot run, completed or failed, and of new share links', async () => {
    const target = await receiver();
    closers.push(target.close);
    const made = await call(server, apiCalls.webhook_outgoing_create, {
      token: admin.token,
      body: { title: 'Ops', url: `http://localhost:${target.port}/events`, events: ['snapshot.finished', 'share.created'] },
    });
    expect(made.status).toBe(200);
    const received = () => target.received.map((r) => JSON.parse(r.body) as { event: string; text: string; data: Record<string, unknown> });

    const location = repoDir();
    const plan = await createPlan(server, master.token, location, { name: '야간 백업' });
    const done = await runPlan(server, master.token, plan._id);
    expect(done.status).toBe('completed');
    await expect.poll(() => target.received.length, { timeout: 5000 }).toBe(1);
    expect(received()[0]).toMatchObject({
      event: 'snapshot.finished',
      text: '스냅샷 완료: 야간 백업',
      data: {
        planId: plan._id,
        planName: '야간 백업',
        runId: done._id,
        status: 'completed',
        files: done.files,
        size: done.size,
        bytesAdded: done.bytesAdded,
        error: null,
      },
    });
    expect(done.files).toBeGreaterThan(0);

    // The repository is gone: the next run fails, and that is told too.
    fs.rmSync(location, { recursive: true, force: true });
    const failed = await runPlan(server, master.token, plan._id);
    expect(failed.status).toBe('failure');
    await expect.poll(() => target.received.length, { timeout: 5000 }).toBe(2);
    expect(received()[1]).toMatchObject({
      event: 'snapshot.finished',
      text: '스냅샷 실패: 야간 백업',
      data: { planId: plan._id, runId: failed._id, status: 'failure', error: failed.error },
    });

    const shared = await call(server, apiCalls.share_create, { token: admin.token, body: { path: '/Other', scope: 'anyone' } });
    expect(shared.status, shared.text).toBe(200);
    await expect.poll(() => target.received.length, { timeout: 5000 }).toBe(3);
    expect(target.received[2]!.headers['x-bogwan-event']).toBe('share.created');
    expect(received()[2]).toMatchObject({
      event: 'share.created',
      text: '공유 링크 생성: /Other',
      data: { path: '/Other', scope: 'anyone', userId: admin.user._id },
    });
  });

  it('checks the address again at every attempt: a name that starts resolving to loopback is refused', async () => {
    const inner = await receiver();
    closers.push(inner.close);
    let answer = '93.184.216.34';
    server.app.webhooks.resolve = async () => [{ address: answer, family: 4 }];
    try {
      const made = await call(server, apiCalls.webhook_outgoing_create, {
        token: admin.token,
        body: { url: `http://hooks.example.test:${inner.port}/hook`, events: ['snapshot.finished'] },
      });
      expect(made.status).toBe(200);
      answer = '127.0.0.1';
      await server.app.webhooks.enqueue('snapshot.finished', { name: 'nightly' });
      await expect
        .poll(async () => (await call(server, apiCalls.webhook_deliveries, { token: admin.token, params: { id: made.body._id } })).body[0]?.status, {
          timeout: 5000,
        })
        .toBe('failed');
      const [delivery] = (await call(server, apiCalls.webhook_deliveries, { token: admin.token, params: { id: made.body._id } })).body;
      expect(delivery!.error).toBe('target refused');
      expect(inner.received).toEqual([]);
    } finally {
      server.app.webhooks.resolve = undefined;
    }
  });
});
