import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiCalls } from '@bogwan/contracts';
import { createClient } from 'redis';
import { call, GOOD_PASSWORD, type HttpTarget, requester } from '../harness.js';
import { createTestDatabase } from '../postgres.js';
import { startS3, type TestS3 } from '../s3.js';
import { scratchDir } from '../scratch-dir.js';
import { type RoundRobinProxy, startRoundRobinProxy } from './round-robin-proxy.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

/** The Redis the multi-process tests share (one per machine, as in production). */
export const REDIS_URL = process.env.BOGWAN_TEST_REDIS_URL ?? 'redis://127.0.0.1:6379';

/** True when the run must not skip the Redis suites (CI, or asked for). */
export function redisRequired(): boolean {
  return process.env.CI === 'true' || process.env.BOGWAN_REQUIRE_REDIS === '1';
}

export async function redisReachable(): Promise<boolean> {
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

/**
 * Whether a suite needing Redis runs: false when Redis is unreachable and may be skipped;
 * where it is required (CI, `BOGWAN_REQUIRE_REDIS=1`) an unreachable Redis is an error.
 */
export async function redisForSuite(): Promise<boolean> {
  if (await redisReachable()) return true;
  if (redisRequired()) throw new Error(`Redis is required for this run but unreachable at ${REDIS_URL}`);
  return false;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const srv = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = srv.address() as net.AddressInfo;
      srv.close(() => resolve(port));
    });
  });
}

/** A real server process, run from source as `npm run dev` does. */
export interface ServerProcess extends HttpTarget {
  name: string;
  port: number;
  dataDir: string;
  child: ChildProcess;
  /** What the process wrote to stdout and stderr so far. */
  output(): string;
  /** `kill -9`: no shutdown hook runs; resolves once the process is gone. */
  kill(): Promise<void>;
  /** SIGTERM and wait (SIGKILL after 15 s). */
  stop(): Promise<void>;
}

const exited = (child: ChildProcess) =>
  new Promise<void>((resolve) => (child.exitCode !== null || child.signalCode !== null ? resolve() : child.once('exit', () => resolve())));

/** Starts a server process with its own data directory; resolves once `/api/health` answers. */
export async function spawnServer(name: string, env: Record<string, string>): Promise<ServerProcess> {
  const port = await freePort();
  const dataDir = scratchDir(`bogwan-${name}-`);
  let out = '';
  const child = spawn(process.execPath, ['--import', 'tsx', 'src/main.ts'], {
    cwd: serverDir,
    env: {
      ...process.env,
      BOGWAN_WEB_DIR: path.join(dataDir, 'no-web-build'),
      // Bursts in tests wait for their turn on a slow test machine instead of being shed (as in harness.ts).
      BOGWAN_MAX_QUEUE_WAIT_MS: '60000',
      ...env,
      PORT: String(port),
      HOST: '127.0.0.1',
      BOGWAN_DATA_DIR: dataDir,
      LOG_LEVEL: 'warn',
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const proc: ServerProcess = {
    name,
    port,
    dataDir,
    child,
    url,
    request: requester(url),
    output: () => out,
    kill: async () => {
      child.kill('SIGKILL');
      await exited(child);
    },
    stop: async () => {
      if (child.exitCode !== null || child.signalCode !== null) return;
      child.kill('SIGTERM');
      const force = setTimeout(() => child.kill('SIGKILL'), 15_000);
      await exited(child);
      clearTimeout(force);
    },
  };
  // Generous: on a loaded machine tsx compiling the server from source takes tens of seconds.
  const deadline = Date.now() + 100_000;
  let health = 'no answer';
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server ${name} exited:\n${out}`);
    try {
      // Raw: a start-up probe, each try cut off after 5 s while the process may not listen yet.
      const res = await fetch(`${url}/api/health`, { signal: AbortSignal.timeout(5000) });
      if (res.ok) return proc;
      health = `${res.status} ${await res.text()}`;
    } catch (error) {
      health = String(error);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  await proc.kill();
  throw new Error(`server ${name} did not start (health: ${health}):\n${out}`);
}

export interface Cluster {
  /** The load balancer's address and client: what a user's browser talks to. */
  proxy: RoundRobinProxy;
  http: HttpTarget;
  a: ServerProcess;
  b: ServerProcess;
  s3: TestS3;
  databaseUrl: string;
  /** The server root (`server.path`) both processes use. */
  sharedRoot: string;
  /** The first account (MASTER), signed in through the proxy, admin mode on. */
  master: { token: string; user: { _id: string } };
  /** A root folder on the server backend and one on the cloud backend (the s3rver bucket). */
  roots: { server: string; cloud: string };
  close(): Promise<void>;
}

/**
 * Two real server processes as two machines would run them: one PostgreSQL database, one
 * Redis, one S3-compatible store (s3rver), each process with its own data directory, both
 * with the same server root (`server.path`, a settings row saved through the admin API)
 * and the same `BOGWAN_SECRET`, behind a per-request round-robin proxy. The first process
 * starts alone (it creates the installation), the storage settings are saved, then the
 * second joins the pool.
 */
export async function startCluster(): Promise<Cluster> {
  const database = await createTestDatabase();
  const s3 = await startS3();
  const sharedRoot = path.join(scratchDir('bogwan-shared-'), 'server-root');
  const env = {
    DATABASE_URL: database.url,
    REDIS_URL,
    BOGWAN_SECRET: 'multi-process-secret-'.padEnd(48, 'x'),
    BOGWAN_TRUST_PROXY: 'loopback',
    ...s3.env,
  };
  const started: ServerProcess[] = [];
  let proxy: RoundRobinProxy | undefined;
  const close = async () => {
    await proxy?.close();
    await Promise.all(started.map((p) => p.stop()));
    await database.drop().catch(() => undefined);
    await s3.close();
  };
  try {
    const a = await spawnServer('a', env);
    started.push(a);
    proxy = await startRoundRobinProxy([{ name: 'a', port: a.port }]);
    const http: HttpTarget = { url: proxy.url, request: requester(proxy.url) };

    const setupToken = fs.readFileSync(path.join(a.dataDir, 'setup-token'), 'utf8').trim();
    const setup = await call(http, apiCalls.setup, {
      body: { token: setupToken, name: '관리자', email: 'master@example.com', password: GOOD_PASSWORD },
    });
    const master: Cluster['master'] = setup.body;
    const token = master.token;
    await call(http, apiCalls.storage_setting_update, { token, body: { server: { path: sharedRoot } } });
    await call(http, apiCalls.admin_mode, { token, body: { password: GOOD_PASSWORD } });
    await call(http, apiCalls.storage_setting_update, { token, body: { cloud: { bucket: await s3.bucket() } } });
    const roots = { server: '/공유 서버', cloud: '/공유 클라우드' };
    await call(http, apiCalls.folder_create, { token, body: { name: roots.server.slice(1), path: '/', backend: 'server' } });
    await call(http, apiCalls.folder_create, { token, body: { name: roots.cloud.slice(1), path: '/', backend: 'cloud' } });

    const b = await spawnServer('b', env);
    started.push(b);
    proxy.pool.push({ name: 'b', port: b.port });
    return { proxy, http, a, b, s3, databaseUrl: database.url, sharedRoot, master, roots, close };
  } catch (error) {
    await close();
    throw error;
  }
}
