import http from 'node:http';
import { apiCalls, type IncomingWebhookCreate } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, type setupMaster, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, sha256 } from './transfer-helpers.js';
import { recordsOf } from './audit-actions-helpers.js';
import { startWebhookServer } from './webhooks-helpers.js';

describeEachDialect('webhooks on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: { token: string; user: { _id: string } };
  let user: { token: string; user: { _id: string } };

  beforeAll(async () => {
    ({ server, master, admin, user } = await startWebhookServer(dialect));
  });
  afterAll(async () => {
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
});
