import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, type setupMaster, type TestServer } from './harness.js';
import { createPlan, repoDir, runPlan } from './snapshots-helpers.js';
import { bytesOf, upload } from './transfer-helpers.js';
import { receiver, startWebhookServer, verify } from './webhooks-helpers.js';

describeEachDialect('outgoing webhooks on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: { token: string; user: { _id: string } };
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    ({ server, master, admin } = await startWebhookServer(dialect));
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await server?.close();
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

    // Something for the snapshot to hold.
    expect((await upload(server, master.token, '/Other', 'report.txt', bytesOf(3000, 'report'))).status).toBe(200);
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
