import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { apiCalls } from '@bogwan/contracts';
import { io, type Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { call } from '../harness.js';
import { upload } from '../transfer-helpers.js';
import { type Cluster, redisForSuite, startCluster } from './cluster.js';

// Outgoing webhooks and the usage event on two processes behind the round-robin proxy:
// both processes queue and send deliveries, and each tells its own sockets of usage changes.

interface Hit {
  key: string | undefined;
  event: string;
  path: unknown;
}

const postgres = inject('postgres');

describe('each event once, on two server processes', async () => {
  const skip = !postgres || !(await redisForSuite());
  let cluster: Cluster;
  let token: string;
  const hits: Hit[] = [];
  let receiver: http.Server | undefined;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (skip) return;
    cluster = await startCluster();
    token = cluster.master.token;
    receiver = http.createServer((request, response) => {
      let text = '';
      request.on('data', (piece) => (text += piece));
      request.on('end', () => {
        const body = JSON.parse(text) as { event: string; data: { path?: string } };
        hits.push({ key: request.headers['idempotency-key'] as string | undefined, event: body.event, path: body.data.path });
        response.writeHead(200).end('ok');
      });
    });
    await new Promise<void>((resolve) => receiver!.listen(0, '127.0.0.1', resolve));
  }, 300_000);
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await new Promise<void>((resolve) => (receiver ? receiver.close(() => resolve()) : resolve()));
    await cluster?.close();
  });

  it.skipIf(skip)('uploads spread over both processes reach an outgoing webhook once each', async () => {
    const lb = cluster.http;
    await call(lb, apiCalls.webhook_allowed_hosts_update, { token, body: { hosts: ['localhost'] } });
    const port = (receiver!.address() as AddressInfo).port;
    await call(lb, apiCalls.webhook_outgoing_create, { token, body: { url: `http://localhost:${port}/hook`, events: ['upload', 'delete'] } });

    const names = Array.from({ length: 12 }, (_, i) => `문서-${i}.txt`);
    const results = await Promise.all(names.map((name) => upload(lb, token, cluster.roots.server, name, Buffer.from(name))));
    expect(results.map((r) => r.status)).toEqual(names.map(() => 200));
    // Everything queued before the delete has been sent once the delete arrives.
    await call(lb, apiCalls.file_trash, { token, body: { paths: [`${cluster.roots.server}/${names[0]}`] } });
    await expect.poll(() => hits.some((h) => h.event === 'delete'), { timeout: 30_000 }).toBe(true);

    const uploads = hits.filter((h) => h.event === 'upload');
    expect(uploads.map((h) => h.path).sort()).toEqual(names.map((name) => `${cluster.roots.server}/${name}`).sort());
    expect(new Set(uploads.map((h) => h.key)).size).toBe(names.length);
  });

  it.skipIf(skip)('a usage change reaches the sockets open on either process', async () => {
    const roots = (await call(cluster.http, apiCalls.root_list, { token })).body;
    const root = roots.find((r) => r.path === cluster.roots.server)!;
    const heard = await Promise.all(
      [cluster.a, cluster.b].map(async (proc) => {
        const socket = io(proc.url, { path: '/socket.io', auth: { token }, transports: ['websocket'], forceNew: true, reconnection: false });
        sockets.push(socket);
        await new Promise<void>((resolve) => socket.once('connect', () => resolve()));
        return socket;
      }),
    );
    // Let each process take its baseline with these sockets open.
    await new Promise((r) => setTimeout(r, 2000));
    const arrived = heard.map(
      (socket) =>
        new Promise<string[]>((resolve) => {
          const listener = (payload: { roots: string[] }) => {
            if (!payload.roots.includes(root._id)) return;
            socket.off('usage', listener);
            resolve(payload.roots);
          };
          socket.on('usage', listener);
        }),
    );
    expect((await upload(cluster.http, token, cluster.roots.server, 'live.bin', Buffer.alloc(4096, 3))).status).toBe(200);
    const payloads = await Promise.all(arrived);
    for (const roots of payloads) expect(roots).toContain(root._id);
  });
});
