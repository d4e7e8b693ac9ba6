import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
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
    for (const name of ['Team', 'Other']) {
      const made = await server.request('POST', '/api/file', { token: master.token, body: { name, path: '/' } });
      expect(made.status).toBe(200);
    }
    for (const root of (await server.request('GET', '/api/file/root', { token: master.token })).body as { name: string; _id: string }[])
      rootId[root.name] = root._id;
    const connected = await connect(server.url, { token: master.token });
    expect(connected.error).toBeUndefined();
    socket = connected.socket;
    socket.on('usage', (payload: { roots: string[] }) => events.push(payload));
  });
  afterAll(async () => {
    socket?.disconnect();
    await server?.close();
  });

  const usage = async () =>
    (await server.request('GET', '/api/file/root/usage', { token: master.token })).body as { roots: { path: string; usage: number; volume: number | null }[] };

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
    expect((await server.request('PUT', '/api/file/root/volume', { token: master.token, body: { path: '/Other', volume: 5_000_000 } })).status).toBe(200);
    expect(await server.app.usageWatch.check()).toEqual([rootId.Other]);

    const moved = await server.request('POST', '/api/file/move', { token: master.token, body: { path: '/Team', name: 'scan-0.txt', newPath: '/Other' } });
    expect(moved.status, moved.text).toBe(200);
    expect((await server.app.usageWatch.check()).sort()).toEqual([rootId.Team, rootId.Other].sort());

    expect((await server.request('POST', '/api/file/trash', { token: master.token, body: { paths: ['/Other/scan-0.txt'] } })).status).toBe(200);
    const trash = (await server.request('GET', '/api/trash', { token: master.token })).body as { items?: { _id: string }[] } | { _id: string }[];
    const items = Array.isArray(trash) ? trash : (trash.items ?? []);
    await server.app.usageWatch.check();
    for (const item of items) expect((await server.request('DELETE', `/api/trash/${item._id}`, { token: master.token })).status).toBe(200);
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
