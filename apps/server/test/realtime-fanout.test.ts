import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import pg from 'pg';
import { createClient } from 'redis';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { newId } from '../src/ids.js';
import { GOOD_PASSWORD } from './harness.js';
import { createTestDatabase } from './postgres.js';
import { scratchDir } from './scratch-dir.js';
import { connect, next } from './sockets.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const REDIS_URL = process.env.BOGWAN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';
const required = process.env.CI === 'true' || process.env.BOGWAN_REQUIRE_REDIS === '1';

async function redisReachable(): Promise<boolean> {
  const client = createClient({ url: REDIS_URL, socket: { connectTimeout: 2000, reconnectStrategy: false } });
  client.on('error', () => undefined);
  try {
    await client.connect();
    await client.ping();
    return true;
  } catch {
    return false;
  } finally {
    await client.quit().catch(() => undefined);
  }
}

async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

interface Proc {
  url: string;
  child: ChildProcess;
  setupTokenFile: string;
}

/** A real server process (from source) against the shared PostgreSQL database and Redis. */
async function spawnServer(env: Record<string, string>): Promise<Proc> {
  const port = await freePort();
  const dataDir = scratchDir('bogwan-fanout-');
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: { ...process.env, ...env, PORT: String(port), HOST: '127.0.0.1', BOGWAN_DATA_DIR: dataDir, LOG_LEVEL: 'warn' },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 200; i++) {
    if (child.exitCode !== null) throw new Error(`server exited:\n${out}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { url, child, setupTokenFile: path.join(dataDir, 'setup-token') };
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  throw new Error(`server did not start:\n${out}`);
}

const postgres = inject('postgres');

describe('two server processes, one PostgreSQL and one Redis', async () => {
  const redis = await redisReachable();
  if (!redis && required) throw new Error(`Redis is required for this run but unreachable at ${REDIS_URL}`);
  const skip = !postgres || !redis;

  let a: Proc;
  let b: Proc;
  let database: Awaited<ReturnType<typeof createTestDatabase>> | undefined;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    if (skip) return;
    database = await createTestDatabase();
    const env = { DATABASE_URL: database.url, REDIS_URL, BOGWAN_SECRET: 'f'.repeat(40) };
    a = await spawnServer(env);
    b = await spawnServer(env);
  });
  afterAll(async () => {
    for (const s of sockets) s.disconnect();
    for (const p of [a, b]) {
      if (p && p.child.exitCode === null) {
        p.child.kill('SIGTERM');
        await new Promise((r) => p.child.once('exit', r));
      }
    }
    await database?.drop();
  });

  it.skipIf(skip)('an event raised on one process reaches a socket connected to the other', async () => {
    // The first account, through process A (the setup token is shared through the database).
    const setupToken = fs.readFileSync(a.setupTokenFile, 'utf8').trim();
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
    const notification = next<{ message: string }>(socket, 'notification');
    const cancel = await fetch(`${a.url}/api/snapshot/cancel/${snapshotId}`, {
      method: 'POST',
      headers: { authorization: `Bearer ${master.token}` },
    });
    expect(cancel.status).toBe(200);
    expect(await taskEvent).toMatchObject({ status: 'canceled', snapshotId });
    expect((await notification).message).toContain('canceled');
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
