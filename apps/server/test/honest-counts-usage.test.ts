import { apiCalls } from '@bogwan/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { connect, next } from './sockets.js';
import { upload } from './transfer-helpers.js';

describeEachDialect('live usage figures on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let socket: Socket;
  const events: { roots: string[] }[] = [];
  const rootId: Record<string, string> = {};

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    for (const name of ['Team', 'Other']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
    for (const root of (await call(server, apiCalls.root_list, { token: master.token })).body) rootId[root.name] = root._id;
    const connected = await connect(server.url, { token: master.token });
    expect(connected.error).toBeUndefined();
    socket = connected.socket;
    socket.on('usage', (payload: { roots: string[] }) => events.push(payload));
  });
  afterAll(async () => {
    socket?.disconnect();
    await server?.close();
  });

  const usage = async () => (await call(server, apiCalls.root_usage, { token: master.token })).body;

  it('a burst of uploads becomes one event naming the root; no change, no event', async () => {
    // Checked by hand here (the timer would split the burst at arbitrary points).
    server.app.usageWatch.stop();
    await server.app.usageWatch.check();
    expect(await server.app.usageWatch.check()).toEqual([]);
    const results = await Promise.all(Array.from({ length: 40 }, (_, i) => upload(server, master.token, '/Team', `scan-${i}.txt`, Buffer.from(`page ${i}`))));
    expect(results.every((r) => r.status === 200)).toBe(true);
    const seen = events.length;
    expect(await server.app.usageWatch.check()).toEqual([rootId.Team]);
    await expect.poll(() => events.length).toBe(seen + 1);
    expect(events.at(-1)).toEqual({ roots: [rootId.Team] });
    expect(await server.app.usageWatch.check()).toEqual([]);
  });

  it('a volume limit change, a move between roots and a purge each name the roots they changed', async () => {
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/Other', volume: 5_000_000 } });
    expect(await server.app.usageWatch.check()).toEqual([rootId.Other]);

    await call(server, apiCalls.file_move, { token: master.token, body: { path: '/Team', name: 'scan-0.txt', newPath: '/Other' } });
    expect((await server.app.usageWatch.check()).sort()).toEqual([rootId.Team, rootId.Other].sort());

    await call(server, apiCalls.file_trash, { token: master.token, body: { paths: ['/Other/scan-0.txt'] } });
    const { items } = (await call(server, apiCalls.trash_list, { token: master.token })).body;
    await server.app.usageWatch.check();
    for (const item of items) await call(server, apiCalls.trash_delete, { token: master.token, params: { id: item._id } });
    expect(await server.app.usageWatch.check()).toEqual([rootId.Other]);
    expect((await usage()).roots.find((r) => r.path === '/Other')).toEqual({
      name: 'Other',
      path: '/Other',
      usage: 0,
      volume: 5_000_000,
      breakdown: { live: 0, versions: 0, trash: 0 },
    });
  });

  it('with the timer running, an upload reaches an open socket without being asked', async () => {
    server.app.usageWatch.start(100);
    await new Promise((r) => setTimeout(r, 250)); // the first tick takes the baseline
    const arrived = next<{ roots: string[] }>(socket, 'usage', 10_000);
    expect((await upload(server, master.token, '/Team', 'live.txt', Buffer.from('live'))).status).toBe(200);
    expect((await arrived).roots).toContain(rootId.Team);
  });
});
