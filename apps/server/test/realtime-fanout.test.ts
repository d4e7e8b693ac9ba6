import fs from 'node:fs';
import path from 'node:path';
import pg from 'pg';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newId } from '../src/ids.js';
import { GOOD_PASSWORD } from './harness.js';
import { REDIS_URL, redisForSuite, type ServerProcess, spawnServer } from './multi-process/cluster.js';
import { createTestDatabase } from './postgres.js';
import { connect, next } from './sockets.js';

const postgres = inject('postgres');

describe('two server processes, one PostgreSQL and one Redis', async () => {
  const skip = !postgres || !(await redisForSuite());

  let a: ServerProcess;
  let b: ServerProcess;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    if (skip) return;
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url, REDIS_URL, BOGWAN_SECRET: 'f'.repeat(40) };
    a = await spawnServer('fanout-a', env);
    // One server directory for both (as a shared volume would be): the first process's.
    const db = new pg.Client({ connectionString: database.url });
    await db.connect();
    await db
      .query(`insert into settings (key, value, updated_at) values ('server.path', $1, $2)`, [
        JSON.stringify(path.join(a.dataDir, 'blobs')),
        new Date().toISOString(),
      ])
      .finally(() => db.end());
    b = await spawnServer('fanout-b', env);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const p of [a, b]) await p?.stop();
    await database?.drop();
  });

  it.skipIf(skip)('an event raised on one process reaches a socket connected to the other', async () => {
    // The first account, through process A (the setup token is shared through the database).
    const setupToken = fs.readFileSync(path.join(a.dataDir, 'setup-token'), 'utf8').trim();
    const setup = await fetch(`${a.url}/api/auth/setup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ token: setupToken, name: '관리자', email: 'master@example.com', password: GOOD_PASSWORD }),
    });
    expect(setup.status).toBe(200);
    const master = (await setup.json()) as { user: { _id: string }; token: string };

    // A socket on process B.
    const { socket, error } = await connect(b.url, { token: master.token });
    sockets.push(socket);
    expect(error).toBeUndefined();

    // A running snapshot task in the shared database (the snapshot runner comes later).
    const snapshotId = newId();
    const db = new pg.Client({ connectionString: database!.url });
    await db.connect();
    try {
      const now = new Date().toISOString();
      await db.query(
        `insert into tasks (id, type, owner_id, name, status, progress, size, extension, client_path, snapshot_id, restore_id, created_at, updated_at)
         values ($1, 'snapshot', $2, 'nightly', 'running', 10, 0, '', '', $3, null, $4, $4)`,
        [newId(), master.user._id, snapshotId, now],
      );
    } finally {
      await db.end();
    }

    // Cancelled through process A: the task event and the notification are raised there.
    const taskEvent = next<{ status: string; snapshotId: string }>(socket, 'task');
    const notification = next<{ key: string }>(socket, 'notification');
    const cancel = await fetch(`${a.url}/api/snapshot/cancel/${snapshotId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${master.token}` },
    });
    expect(cancel.status).toBe(200);
    expect(await taskEvent).toMatchObject({ status: 'canceled', snapshotId });
    expect((await notification).key).toMatch(/^note_task_\w+_canceled$/);
  });

  it.skipIf(skip)('signing out through one process closes that session’s socket on the other', async () => {
    // A second session of the account made above, through process A.
    const login = await fetch(`${a.url}/api/auth/login`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ email: 'master@example.com', password: GOOD_PASSWORD }),
    });
    expect(login.status).toBe(200);
    const { user, token } = (await login.json()) as { user: { _id: string }; token: string };
    const ending = await connect(b.url, { token });
    sockets.push(ending.socket);
    expect(ending.error).toBeUndefined();
    const closed = next<string>(ending.socket, 'disconnect', 5000);

    const logout = await fetch(`${a.url}/api/auth/logout`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': 'application/json' },
      body: JSON.stringify({ _id: user._id }),
    });
    expect(logout.status).toBe(204);
    expect(await closed).toBe('io server disconnect');
    // The session of the first test, on the same process, is still connected.
    expect(sockets[0]!.connected).toBe(true);
  });
});
