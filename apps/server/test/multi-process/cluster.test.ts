import http from 'node:http';
import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import sharp from 'sharp';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { answerOf, call, callRefused, GOOD_PASSWORD, type HttpTarget, type TestResponse } from '../harness.js';
import { createPlan, finishedRun, type RunView } from '../snapshots-helpers.js';
import { publicShare } from '../sharing-helpers.js';
import { bytesOf, type ChunkRequest, chunkMultipart, fetchBytes, sendChunk, sha256, upload } from '../transfer-helpers.js';
import { type Cluster, redisForSuite, startCluster } from './cluster.js';
import { UPSTREAM_HEADER } from './round-robin-proxy.js';

// The multi-process tier: two real server processes (own data directories, one PostgreSQL,
// one Redis, one s3rver, one shared server root) behind a per-request round-robin proxy.
// Each capability that keeps state is used through the proxy, so its steps land on both
// processes, and checked from the process that did not do the work.

const postgres = inject('postgres');

describe('two server processes behind a round-robin load balancer', async () => {
  const skip = !postgres || !(await redisForSuite());
  let cluster: Cluster;
  let token: string;
  let lb: HttpTarget;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (skip) return;
    cluster = await startCluster();
    token = cluster.master.token;
    lb = cluster.http;
  }, 300_000);
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await cluster?.close();
  });

  const upstreamOf = (res: TestResponse) => res.headers.get(UPSTREAM_HEADER);
  /** A request from another client address (the proxy appends its own after it). */
  const from = (address: string) => ({ 'x-forwarded-for': address });
  const credentials = (email: string, password: string, address = '198.51.100.1') => ({ body: { email, password }, headers: from(address) });
  const loginRefused = (email: string, password: string, address?: string) => callRefused(lb, apiCalls.login, credentials(email, password, address));
  const createAccount = async (email: string) => {
    await call(lb, apiCalls.user_create, { token, body: { name: '사용자', email, password: GOOD_PASSWORD, status: 'ACTIVE', approved: true } });
  };

  it.skipIf(skip)('signs in through the balancer; the session holds on both processes', async () => {
    const signedIn = await call(lb, apiCalls.login, credentials('master@example.com', GOOD_PASSWORD));
    if (!('token' in signedIn.body)) throw new Error('a second factor was asked');
    const { token: session, user } = signedIn.body;
    for (const proc of [cluster.a, cluster.b]) {
      expect((await call(proc, apiCalls.me, { token: session })).body).toMatchObject({ email: 'master@example.com' });
    }
    // Two tabs refresh with the same cookie at once, one through each process: the token
    // is rotated once (one new cookie), and both get an access token.
    const refresh = (cookie: string) => call(lb, apiCalls.refresh, { body: { _id: user._id }, cookies: { bogwan_refresh: cookie } });
    const both = await Promise.all([refresh(signedIn.cookies.bogwan_refresh!), refresh(signedIn.cookies.bogwan_refresh!)]);
    expect(both.map((r) => r.status)).toEqual([200, 200]);
    expect(new Set(both.map(upstreamOf))).toEqual(new Set(['a', 'b']));
    const rotated = both.map((r) => r.cookies.bogwan_refresh).filter((c) => c);
    expect(rotated).toHaveLength(1);
    expect((await refresh(rotated[0]!)).status).toBe(200);
  });

  it.skipIf(skip)('counts wrong passwords on both processes together: the fifth restricts the account', async () => {
    await createAccount('lock@example.com');
    const answers: TestResponse[] = [];
    for (let i = 0; i < 4; i++) answers.push(await loginRefused('lock@example.com', `Wrong!pass${i}`));
    expect(answers.map((a) => a.status)).toEqual([401, 401, 401, 401]);
    expect(new Set(answers.map(upstreamOf))).toEqual(new Set(['a', 'b']));
    expect((await loginRefused('lock@example.com', 'Wrong!pass4')).body.message).toBe('login_attempt_restrict');
    expect(await loginRefused('lock@example.com', GOOD_PASSWORD)).toMatchObject({ status: 423, body: { message: 'login_attempt_restrict' } });
  });

  it.skipIf(skip)('a burst of wrong passwords spread over both processes checks at most five; the right one is refused', async () => {
    await createAccount('burst@example.com');
    // A burst: each answer may be a check (401) or a refusal before it.
    const burst = await Promise.all(
      Array.from({ length: 30 }, (_, i) => answerOf(lb, apiCalls.login, credentials('burst@example.com', `Wrong!pass${i}`, `203.0.113.${i + 1}`))),
    );
    expect(burst.every((a) => a.status < 500)).toBe(true);
    expect(new Set(burst.map(upstreamOf))).toEqual(new Set(['a', 'b']));
    const checked = burst.filter((a) => a.status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(burst.filter((a) => a.status !== 401).every((a) => a.body.message === 'login_attempt_restrict')).toBe(true);
    expect(await loginRefused('burst@example.com', GOOD_PASSWORD, '192.0.2.200')).toMatchObject({ status: 423, body: { message: 'login_attempt_restrict' } });
  });

  for (const backend of ['server', 'cloud'] as const) {
    it.skipIf(skip)(`stores an upload whose chunks went to both processes, byte for byte (${backend} root)`, async () => {
      const root = cluster.roots[backend];
      const data = bytesOf(3 * CHUNK_SIZE + 4321, `spread-${backend}`);
      const name = `spread-${backend}.bin`;
      const answers: TestResponse[] = [];
      for (let i = 0; i < 4; i++) {
        const res = await sendChunk(lb, token, {
          path: root,
          fileName: name,
          fileSize: data.length,
          chunkIndex: i,
          totalChunks: 4,
          bytes: data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
        });
        expect(res.status, res.text).toBe(200);
        answers.push(res);
      }
      expect(new Set(answers.map(upstreamOf))).toEqual(new Set(['a', 'b']));
      expect(answers[3]!.body).toMatchObject({ complete: true, file: { size: data.length } });
      const url = `/api/file/download?path=${encodeURIComponent(`${root}/${name}`)}`;
      for (const proc of [cluster.a, cluster.b]) {
        const got = await fetchBytes(proc, token, url);
        expect(got.status).toBe(200);
        expect(got.bytes.length).toBe(data.length);
        expect(sha256(got.bytes)).toBe(sha256(data));
      }
    });
  }

  it.skipIf(skip)('an avatar set through one process is served by the other', async () => {
    const png = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#1e88e5' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([new Uint8Array(png)], { type: 'image/png' }), 'me.png');
    const set = await call(cluster.a, apiCalls.user_avatar, { params: { id: cluster.master.user._id }, token, body: form });
    expect(set.status).toBe(200);
    const url = set.body.profileImage!;
    const fromA = await fetch(cluster.a.url + url);
    const fromB = await fetch(cluster.b.url + url);
    expect(fromB.status).toBe(200);
    expect(fromB.headers.get('content-type')).toBe('image/webp');
    expect(Buffer.from(await fromB.arrayBuffer())).toEqual(Buffer.from(await fromA.arrayBuffer()));
  });

  it.skipIf(skip)('realtime through the balancer: WebSocket only, one connection, events raised on either process arrive', async () => {
    // A long-polling handshake would be followed by requests landing on the other process.
    const polling = await fetch(`${lb.url}/socket.io/?EIO=4&transport=polling`);
    expect(polling.status).toBe(400);

    const socket = io(lb.url, { path: '/socket.io', auth: { token }, transports: ['websocket'], forceNew: true, reconnectionDelay: 100 });
    sockets.push(socket);
    let connects = 0;
    const troubles: string[] = [];
    socket.on('connect', () => connects++);
    socket.on('connect_error', (error) => troubles.push(`connect_error ${error.message}`));
    socket.on('disconnect', (reason) => troubles.push(`disconnect ${reason}`));
    await new Promise<void>((resolve) => socket.once('connect', () => resolve()));

    const completed = new Map<string, string>();
    const allCompleted = new Promise<void>((resolve) => {
      socket.on('task', (task: { name: string; status: string }) => {
        if (task.status === 'completed') completed.set(task.name, task.status);
        if (completed.size === 4) resolve();
      });
    });
    const handled: (string | null)[] = [];
    for (let i = 0; i < 4; i++) {
      const res = await upload(lb, token, cluster.roots.server, `event-${i}.txt`, Buffer.from(`event ${i}`));
      expect(res.status, res.text).toBe(200);
      handled.push(upstreamOf(res));
    }
    expect(new Set(handled)).toEqual(new Set(['a', 'b']));
    await allCompleted;
    expect([...completed.keys()].sort()).toEqual(['event-0.txt', 'event-1.txt', 'event-2.txt', 'event-3.txt']);
    expect(connects).toBe(1);
    expect(troubles).toEqual([]);
  });

  it.skipIf(skip)('counts share-password attempts on both processes together', async () => {
    const file = await upload(lb, token, cluster.roots.server, 'shared.txt', Buffer.from('shared'));
    expect(file.status).toBe(200);
    const link = await call(lb, apiCalls.share_create, {
      token,
      body: { scope: 'anyone', path: `${cluster.roots.server}/shared.txt`, password: 'open sesame' },
    });
    const pub = publicShare(lb);
    const tries: TestResponse[] = [];
    for (let i = 0; i < 10; i++) tries.push(await pub.unlock(link.body.key, `wrong ${i}`));
    expect(tries.map((t) => t.status)).toEqual(Array(10).fill(401));
    expect(new Set(tries.map(upstreamOf))).toEqual(new Set(['a', 'b']));
    // Ten wrong passwords close the link (per link, in 15 minutes), the right one included.
    expect(await pub.unlock(link.body.key, 'open sesame')).toMatchObject({ status: 429, body: { message: 'too_many_requests_message' } });
  });

  it.skipIf(skip)(
    'one snapshot at a time across both processes; a due schedule runs once',
    async () => {
      const bucket = await cluster.s3.bucket();
      const location = { kind: 's3', bucket, prefix: 'plan/' };
      const plan = await createPlan(lb, token, '', { location });
      // A race: one start is taken, the other refused.
      const start = () => [cluster.a, cluster.b].map((proc) => answerOf(proc, apiCalls.snapshot_run, { token, params: { id: plan._id } }));
      const started = await Promise.all(start());
      const statuses = started.map((s) => s.status).sort();
      expect(statuses[0]).toBeLessThan(300);
      expect(started.filter((s) => s.status === 409).map((s) => s.body.message)).toEqual(['snapshot_operation_in_progress']);
      const run = started.find((s) => s.status < 300)!.body as RunView;
      expect((await finishedRun(lb, token, run._id)).status).toBe('completed');

      // A schedule due this minute: each process's ticker (every 20 s) sees it for two
      // minutes; after both have ticked, one run exists.
      const now = new Date();
      const time = `${String(now.getHours()).padStart(2, '0')}:${String(now.getMinutes()).padStart(2, '0')}`;
      const scheduled = await createPlan(lb, token, '', {
        name: '예약',
        location: { ...location, prefix: 'scheduled/' },
        schedules: [{ days: [now.getDay()], time, status: 'active' }],
      });
      await new Promise((r) => setTimeout(r, 45_000));
      const runs = (await call(lb, apiCalls.snapshot_run_list, { token, query: { limit: 1000 } })).body.items.filter((r) => r.planId === scheduled._id);
      expect(runs.map((r) => r.trigger)).toEqual(['schedule']);
      expect((await finishedRun(lb, token, runs[0]!._id)).status).toBe('completed');
    },
    180_000,
  );

  it.skipIf(skip)('one storage sync of a root however many start it at once on both processes', async () => {
    await call(lb, apiCalls.folder_create, { token, body: { name: '옮길 폴더', path: '/', backend: 'server' } });
    const data = bytesOf(50_000, 'synced');
    expect((await upload(lb, token, '/옮길 폴더', 'x.bin', data)).status).toBe(200);
    // A race: one start is taken, the others refused.
    const starts = await Promise.all(
      Array.from({ length: 6 }, (_, i) =>
        answerOf(i % 2 === 0 ? cluster.a : cluster.b, apiCalls.storage_sync, { token, body: { path: '/옮길 폴더', mode: 'move' } }),
      ),
    );
    expect(starts.filter((s) => s.status === 200)).toHaveLength(1);
    expect(starts.filter((s) => s.status !== 200).map((s) => [s.status, s.body.message])).toEqual(Array(5).fill([409, 'sync_in_progress']));
    const id = starts.find((s) => s.status === 200)!.body._id as string;
    const deadline = Date.now() + 60_000;
    let status = 'running';
    while (status === 'running' && Date.now() < deadline) {
      await new Promise((r) => setTimeout(r, 250));
      status = (await call(lb, apiCalls.storage_sync_list, { token })).body.find((s) => s._id === id)!.status;
    }
    expect(status).toBe('completed');
    expect(sha256((await fetchBytes(cluster.b, token, `/api/file/download?path=${encodeURIComponent('/옮길 폴더/x.bin')}`)).bytes)).toBe(sha256(data));
  });

  it.skipIf(skip)(
    'a process killed mid-upload: the upload resumes on the other and the file is exact',
    async () => {
      const root = cluster.roots.server;
      const data = bytesOf(2 * CHUNK_SIZE + 777, 'killed');
      const name = 'killed.bin';
      const chunk = (i: number) => ({
        path: root,
        fileName: name,
        fileSize: data.length,
        chunkIndex: i,
        totalChunks: 3,
        bytes: data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
      });
      expect((await sendChunk(cluster.a, token, chunk(0))).status).toBe(200);
      // The second chunk is half sent to process A when A dies.
      const cut = streamHalfAChunk(cluster.a.port, token, chunk(1));
      await cut.halfSent;
      await cluster.a.kill();
      await cut.ended;
      cluster.proxy.pool.splice(
        cluster.proxy.pool.findIndex((u) => u.name === 'a'),
        1,
      );

      // The client asks what arrived and sends the rest, as the web's upload engine does.
      const status = await call(lb, apiCalls.file_upload_status, { token, query: { path: root, fileName: name, fileSize: data.length } });
      expect(status.body.received).toEqual([0]);
      for (const i of [1, 2]) {
        const res = await untilAccepted(() => sendChunk(lb, token, chunk(i)));
        expect(res.status, res.text).toBe(200);
        if (i === 2) expect(res.body).toMatchObject({ complete: true });
      }
      const got = await fetchBytes(cluster.b, token, `/api/file/download?path=${encodeURIComponent(`${root}/${name}`)}`);
      expect(got.status).toBe(200);
      expect(sha256(got.bytes)).toBe(sha256(data));
    },
    240_000,
  );
});

/**
 * Sends a chunk's fields and half its bytes to a process, then stalls; `halfSent` resolves
 * once those bytes left, `ended` when the connection is gone (the process was killed).
 */
function streamHalfAChunk(port: number, token: string, chunk: ChunkRequest) {
  const { contentType, head, tail } = chunkMultipart(chunk);
  const length = Buffer.byteLength(head) + chunk.bytes.length + Buffer.byteLength(tail);
  const req = http.request({
    host: '127.0.0.1',
    port,
    method: 'POST',
    path: '/api/file/upload',
    headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': String(length) },
  });
  const ended = new Promise<void>((resolve) => {
    req.on('error', () => resolve());
    req.on('close', () => resolve());
  });
  req.on('response', (res) => res.resume());
  req.write(head);
  // A moment for the server to start writing what it was sent (no assertion depends on it).
  const halfSent = new Promise<void>((resolve) => req.write(chunk.bytes.subarray(0, chunk.bytes.length >> 1), () => setTimeout(resolve, 300)));
  return { halfSent, ended };
}

/**
 * Sends until the chunk is taken, as the web's upload engine retries: the next write of a
 * chunk whose writer died waits for that writer's lease to lapse, and is refused (409) if it
 * does not lapse in time; a refusal can reach the client as a reset connection.
 */
async function untilAccepted(send: () => Promise<TestResponse>, deadlineMs = 150_000): Promise<TestResponse> {
  const deadline = Date.now() + deadlineMs;
  for (;;) {
    try {
      const res = await send();
      if (res.status !== 409 || Date.now() > deadline) return res;
    } catch (error) {
      if (Date.now() > deadline) throw error;
    }
    await new Promise((r) => setTimeout(r, 2000));
  }
}
