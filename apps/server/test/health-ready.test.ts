import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { apiCalls, type ReadinessResponse } from '@bogwan/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { answerOf, call, callRefused, describeEachDialect, type RefusalAnswer, startServer, type TestServer } from './harness.js';
import { REDIS_URL, redisForSuite } from './multi-process/cluster.js';

const allOk = { database: 'ok', migrations: 'ok', blobStore: 'ok', redis: 'not_used' };

/** Makes the blob store's tmp directory a file (the store cannot write); answers the repair. */
function breakBlobStore(server: TestServer): () => void {
  const tmp = path.join(server.dataDir, 'blobs', 'tmp');
  fs.rmSync(tmp, { recursive: true });
  fs.writeFileSync(tmp, 'a file where a directory should be');
  return () => {
    fs.rmSync(tmp);
    fs.mkdirSync(tmp);
  };
}

/** A 503 of readiness answers the readiness body (which checks failed), not the API's error body. */
const readinessOf = (refused: RefusalAnswer) => refused.body as unknown as ReadinessResponse;

describeEachDialect('liveness and readiness on $dialect', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is live and ready while everything answers, without signing in, and never cached', async () => {
    const live = await call(server, apiCalls.health_live);
    expect(live.body).toEqual({ status: 'ok' });
    const ready = await call(server, apiCalls.health_ready);
    expect(ready.body).toEqual({ status: 'ok', checks: allOk, failed: [] });
    expect(ready.headers.get('cache-control')).toBe('no-store');
  });

  it('answers 503 naming the blob store when it cannot write, while staying live; /api/health agrees', async () => {
    const repair = breakBlobStore(server);
    try {
      const ready = await callRefused(server, apiCalls.health_ready);
      expect(ready.status).toBe(503);
      expect(readinessOf(ready)).toEqual({ status: 'unavailable', checks: { ...allOk, blobStore: 'failed' }, failed: ['blobStore'] });
      await call(server, apiCalls.health_live);
      expect((await callRefused(server, apiCalls.health)).status).toBe(503);
    } finally {
      repair();
    }
    await call(server, apiCalls.health_ready);
  });

  it('answers 503 naming the migrations when the database lacks one this build knows', async () => {
    const last = await server.app.db
      .selectFrom('kysely_migration' as never)
      .select('name' as never)
      .orderBy('name' as never, 'desc')
      .executeTakeFirstOrThrow();
    const { name } = last as { name: string };
    await server.app.db
      .deleteFrom('kysely_migration' as never)
      .where('name' as never, '=', name as never)
      .execute();
    try {
      const ready = await callRefused(server, apiCalls.health_ready);
      expect(ready.status).toBe(503);
      expect(readinessOf(ready).failed).toEqual(['migrations']);
      expect(readinessOf(ready).checks.database).toBe('ok');
    } finally {
      await server.app.db
        .insertInto('kysely_migration' as never)
        .values({ name, timestamp: new Date().toISOString() } as never)
        .execute();
    }
    await call(server, apiCalls.health_ready);
  });
});

describe('readiness with Redis', () => {
  let useRedis = false;
  let server: TestServer | undefined;
  let relay: net.Server | undefined;
  let relayPort = 0;
  const sockets = new Set<net.Socket>();
  const startupSockets = new Set<net.Socket>();

  /** A relay in front of the real Redis, so that this test can cut Redis off for this server alone. */
  async function openRelay(port: number): Promise<void> {
    const target = new URL(REDIS_URL);
    relay = net.createServer((client) => {
      const upstream = net.connect(Number(target.port || 6379), target.hostname);
      for (const socket of [client, upstream]) {
        sockets.add(socket);
        socket.on('close', () => sockets.delete(socket));
        socket.on('error', () => undefined);
      }
      client.pipe(upstream).pipe(client);
    });
    await new Promise<void>((resolve) => relay!.listen(port, '127.0.0.1', resolve));
    relayPort = (relay.address() as net.AddressInfo).port;
  }

  beforeAll(async () => {
    useRedis = await redisForSuite();
    if (!useRedis) return;
    await openRelay(0);
    server = await startServer('sqlite', { REDIS_URL: `redis://127.0.0.1:${relayPort}` });
    for (const socket of sockets) startupSockets.add(socket);
  });
  afterAll(async () => {
    await server?.close();
    for (const socket of sockets) socket.destroy();
    relay?.close();
  });

  it('checks Redis when one is configured, and names it when it stops answering', async (context) => {
    if (!useRedis) return context.skip();
    const ready = await call(server!, apiCalls.health_ready);
    expect(ready.body.checks.redis).toBe('ok');

    // Refuse new connections and cut the probe's own (opened by the first check, after start-up).
    // The realtime connections stay up: cutting those too makes the socket.io Redis adapter's
    // unawaited publishes reject unhandled, which is that adapter's matter, not readiness's.
    relay!.close();
    for (const socket of sockets) if (!startupSockets.has(socket)) socket.destroy();
    const down = await callRefused(server!, apiCalls.health_ready);
    expect(down.status).toBe(503);
    expect(readinessOf(down)).toMatchObject({ status: 'unavailable', failed: ['redis'], checks: { database: 'ok', blobStore: 'ok', redis: 'failed' } });
    await call(server!, apiCalls.health_live);

    // Redis back: ready again once the clients have reconnected (they retry on their own).
    await openRelay(relayPort);
    // A poll: it reads 503s until the answer turns 200.
    let again = await answerOf(server!, apiCalls.health_ready, {});
    for (let attempt = 0; again.status !== 200 && attempt < 50; attempt++) {
      await new Promise((resolve) => setTimeout(resolve, 200));
      again = await answerOf(server!, apiCalls.health_ready, {});
    }
    expect(again.body).toMatchObject({ status: 'ok', failed: [] });
  });
});
