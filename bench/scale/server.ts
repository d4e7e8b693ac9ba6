// The built server as a child process: started on a data directory (and a database), timed
// from spawn to its first healthy answer, called through its HTTP API, measured, stopped.
import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export interface RunningServer {
  child: ChildProcess;
  url: string;
  /** Milliseconds from spawn to the first 200 of `/api/health`. */
  startupMs: number;
}

const freePort = () =>
  new Promise<number>((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address() as net.AddressInfo;
      s.close(() => resolve(port));
    });
  });

/** Starts the server bundle `main` on `dataDir` (and `databaseUrl` when given) and waits until it is healthy. */
export async function startServer(main: string, dataDir: string, databaseUrl: string | undefined): Promise<RunningServer> {
  const port = await freePort();
  const env = {
    ...process.env,
    PORT: String(port),
    HOST: '127.0.0.1',
    BOGWAN_DATA_DIR: dataDir,
    BOGWAN_WEB_DIR: path.join(dataDir, 'no-web'),
    LOG_LEVEL: 'warn',
    ...(databaseUrl ? { DATABASE_URL: databaseUrl } : {}),
  };
  const t0 = process.hrtime.bigint();
  // With the young-generation flag `npm run serve` gives it (docs/decisions/platform.md).
  const child = spawn(process.execPath, ['--max-semi-space-size=8', main], { env, stdio: ['ignore', 'ignore', 'inherit'] });
  const url = `http://127.0.0.1:${port}`;
  // Polled every 10 ms: the figure is at most that much late.
  for (let i = 0; i < 12_000; i += 1) {
    if (child.exitCode !== null) throw new Error(`server exited with ${child.exitCode}`);
    try {
      if ((await fetch(`${url}/api/health`)).ok) return { child, url, startupMs: msSince(t0) };
    } catch {
      // not listening yet
    }
    await new Promise((r) => setTimeout(r, 10));
  }
  child.kill('SIGKILL');
  throw new Error('server did not become healthy in 120 s');
}

/** Stops the server (SIGTERM) and waits for its exit. */
export async function stopServer(server: RunningServer): Promise<void> {
  if (server.child.exitCode !== null) return;
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await Promise.race([exited, new Promise((r) => setTimeout(r, 30_000))]);
  if (server.child.exitCode === null) server.child.kill('SIGKILL');
}

/** One JSON call; throws on an error answer. */
export async function api<T = any>(url: string, method: string, urlPath: string, token?: string, body?: unknown): Promise<T> {
  const res = await fetch(url + urlPath, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text.slice(0, 300)}`);
  return (text ? JSON.parse(text) : undefined) as T;
}

/** Resident and peak resident memory of a process, MiB (Linux). */
export function memoryOf(pid: number): { rssMiB: number; peakMiB: number } {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kib = (field: string) => Number(new RegExp(`^${field}:\\s+(\\d+)`, 'm').exec(status)?.[1] ?? 0);
  return { rssMiB: kib('VmRSS') / 1024, peakMiB: kib('VmHWM') / 1024 };
}

export interface Timing {
  p50: number;
  p99: number;
  runs: number;
}

/** Calls `call` a few times unmeasured, then `runs` times one after another; milliseconds. */
export async function timeCalls(call: () => Promise<unknown>, runs: number): Promise<Timing> {
  for (let i = 0; i < 3; i += 1) await call();
  const times: number[] = [];
  for (let i = 0; i < runs; i += 1) {
    const t = process.hrtime.bigint();
    await call();
    times.push(msSince(t));
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), runs };
}

export function percentile(values: number[], p: number): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
}

export function msSince(t0: bigint): number {
  return Number(process.hrtime.bigint() - t0) / 1e6;
}
