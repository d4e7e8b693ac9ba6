import { apiCalls } from '@bogwan/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from '../harness.js';
import { connect, next } from '../sockets.js';
import { REDIS_URL, redisForSuite } from './cluster.js';

// Two installations (two databases) on one Redis. Their users are the same rows (one was
// made from an export of the other, with its own installation id): without a channel
// prefix per installation, an event for that user on one would reach the other's sockets.

describeEachDialect('two installations on one Redis ($dialect)', async (dialect) => {
  // Redis, unlike the dialect, is looked up here: unreachable, it skips (or fails the run where required).
  const skip = !(await redisForSuite());
  let first: TestServer;
  let second: TestServer;
  let token: string;
  let userId: string;
  const sockets: Socket[] = [];

  beforeAll(async () => {
    if (skip) return;
    const env = { REDIS_URL, BOGWAN_SECRET: 'two-installations-one-redis-'.padEnd(40, 'x') };
    first = await startServer(dialect, env);
    second = await startServer(dialect, env);
    const master = await setupMaster(first);
    token = master.token;
    userId = master.user._id;
    // The account and its session, as the second installation's own rows.
    const sessionId = (JSON.parse(Buffer.from(token.split('.')[1]!, 'base64url').toString()) as { sid: string }).sid;
    const user = await first.app.db.selectFrom('users').selectAll().where('id', '=', userId).executeTakeFirstOrThrow();
    const session = await first.app.db.selectFrom('sessions').selectAll().where('id', '=', sessionId).executeTakeFirstOrThrow();
    await second.app.db.insertInto('users').values(user).execute();
    await second.app.db.insertInto('sessions').values(session).execute();
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    await first?.close();
    await second?.close();
  });

  /** A group with the account in it (an administrator may not add itself), then a reminder of it: one notification. */
  const notifyThrough = async (server: TestServer, name: string) => {
    const groupId = (await call(server, apiCalls.group_create, { token, body: { name } })).body._id;
    await server.app.db.insertInto('group_members').values({ group_id: groupId, user_id: userId, created_at: new Date().toISOString() }).execute();
    await call(server, apiCalls.notification_group, { token, body: { userId, groupId } });
  };

  it.skipIf(skip)('each hears only its own events', async () => {
    const heard = new Map<TestServer, string[]>();
    const open = async (server: TestServer) => {
      const { socket, error } = await connect(server.url, { token });
      sockets.push(socket);
      expect(error).toBeUndefined();
      heard.set(server, []);
      socket.on('notification', (n: { params: Record<string, unknown> }) => heard.get(server)!.push(JSON.stringify(n.params)));
      return socket;
    };
    const onFirst = await open(first);
    const onSecond = await open(second);

    const firstHeard = next(onFirst, 'notification');
    await notifyThrough(first, 'first-team');
    await firstHeard;
    // The first installation's event has crossed Redis by now; the second one's own event
    // (several requests later) is the only one its socket may have heard.
    const secondHeard = next(onSecond, 'notification');
    await notifyThrough(second, 'second-team');
    await secondHeard;

    expect(heard.get(first)!).toHaveLength(1);
    expect(heard.get(first)![0]).toContain('first-team');
    expect(heard.get(second)!).toHaveLength(1);
    expect(heard.get(second)![0]).toContain('second-team');
  });
});
