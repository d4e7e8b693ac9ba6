import path from 'node:path';
import { expect } from 'vitest';
import type { HttpTarget } from './harness.js';
import { scratchDir } from './scratch-dir.js';

export const REPO_PASSWORD = 'repository-secret-1';

/** A fresh directory outside the server's data directory for a repository. */
export function repoDir(): string {
  return path.join(scratchDir('bogwan-vault-'), 'repo');
}

export async function createRoot(server: HttpTarget, token: string, name: string): Promise<void> {
  const res = await server.request('POST', '/api/file', { token, body: { name, path: '/' } });
  expect(res.status, res.text).toBe(200);
}

export async function createFolder(server: HttpTarget, token: string, parent: string, name: string): Promise<void> {
  const res = await server.request('POST', '/api/file', { token, body: { name, path: parent } });
  expect(res.status, res.text).toBe(200);
}

/** Creates a plan through the API; answers the plan. */
export async function createPlan(server: HttpTarget, token: string, location: string, overrides: Record<string, unknown> = {}) {
  const res = await server.request('POST', '/api/snapshot/plan', {
    token,
    body: {
      name: '매일 백업',
      backupType: 'incremental',
      target: { all: true, roots: [] },
      location: { kind: 'local', path: location },
      password: REPO_PASSWORD,
      schedules: [],
      ...overrides,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body as { _id: string; schedules: { _id: string }[] };
}

async function until<T>(read: () => Promise<T>, done: (value: T) => boolean, what: string, timeoutMs = 30_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    const value = await read();
    if (done(value)) return value;
    if (Date.now() > deadline) throw new Error(`timed out waiting for ${what}: ${JSON.stringify(value)}`);
    await new Promise((r) => setTimeout(r, 100));
  }
}

export interface RunView {
  _id: string;
  status: string;
  files: number;
  size: number;
  bytesAdded: number;
  error: string | null;
  snapshotId: string | null;
  trigger: string;
}

/** Waits until a run is no longer running; answers it. */
export async function finishedRun(server: HttpTarget, token: string, runId: string): Promise<RunView> {
  return until(
    async () => ((await server.request('GET', '/api/snapshot/run?limit=1000', { token })).body.items as RunView[]).find((r) => r._id === runId)!,
    (run) => run !== undefined && run.status !== 'running',
    `run ${runId}`,
  );
}

export interface RestoreView {
  _id: string;
  status: string;
  files: number;
  failed: number;
  size: number;
  error: string | null;
}

export async function finishedRestore(server: HttpTarget, token: string, restoreId: string): Promise<RestoreView> {
  return until(
    async () => ((await server.request('GET', '/api/restore?limit=1000', { token })).body.items as RestoreView[]).find((r) => r._id === restoreId)!,
    (restore) => restore !== undefined && restore.status !== 'running',
    `restore ${restoreId}`,
  );
}

/** Starts a run and waits for it to finish. */
export async function runPlan(server: HttpTarget, token: string, planId: string): Promise<RunView> {
  const res = await server.request('POST', `/api/snapshot/plan/${planId}/run`, { token });
  expect(res.status, res.text).toBe(202);
  return finishedRun(server, token, res.body._id);
}

/** Starts a restore and waits for it to finish. */
export async function restoreItems(
  server: HttpTarget,
  token: string,
  body: { runId: string; items: string[]; target: unknown; onConflict?: string },
): Promise<RestoreView> {
  const res = await server.request('POST', '/api/restore', { token, body });
  expect(res.status, res.text).toBe(202);
  return finishedRestore(server, token, res.body._id);
}
