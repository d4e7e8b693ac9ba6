import path from 'node:path';
import { apiCalls, type Restore, type RestoreCreate, type SnapshotPlanCreate, type SnapshotRun } from '@bogwan/contracts';
import { expect } from 'vitest';
import { call, type HttpTarget } from './harness.js';
import { scratchDir } from './scratch-dir.js';

export const REPO_PASSWORD = 'repository-secret-1';

/** A fresh directory outside the server's data directory for a repository. */
export function repoDir(): string {
  return path.join(scratchDir('bogwan-vault-'), 'repo');
}

export async function createRoot(server: HttpTarget, token: string, name: string): Promise<void> {
  await call(server, apiCalls.folder_create, { token, body: { name, path: '/' } });
}

export async function createFolder(server: HttpTarget, token: string, parent: string, name: string): Promise<void> {
  await call(server, apiCalls.folder_create, { token, body: { name, path: parent } });
}

/**
 * What a test changes of the default plan. `location` is also taken as a plain object whose
 * `kind` is a string (as a test keeps it in a variable); the server checks it all the same.
 */
export type PlanOverrides = Omit<Partial<SnapshotPlanCreate>, 'location'> & {
  location?: SnapshotPlanCreate['location'] | { kind: string; [field: string]: string };
};

/** Creates a plan through the API; answers the plan. */
export async function createPlan(server: HttpTarget, token: string, location: string, overrides: PlanOverrides = {}) {
  const { location: where = { kind: 'local', path: location }, ...rest } = overrides;
  const res = await call(server, apiCalls.snapshot_plan_create, {
    token,
    body: {
      name: '매일 백업',
      backupType: 'incremental',
      target: { all: true, roots: [] },
      location: where as SnapshotPlanCreate['location'],
      password: REPO_PASSWORD,
      schedules: [],
      ...rest,
    },
  });
  expect(res.status, res.text).toBe(201);
  return res.body;
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

/** A run as the API lists it. */
export type RunView = SnapshotRun;

/** Waits until a run is no longer running; answers it. */
export async function finishedRun(server: HttpTarget, token: string, runId: string): Promise<RunView> {
  return until(
    async () => (await call(server, apiCalls.snapshot_run_list, { token, query: { limit: 1000 } })).body.items.find((r) => r._id === runId)!,
    (run) => run !== undefined && run.status !== 'running',
    `run ${runId}`,
  );
}

export async function finishedRestore(server: HttpTarget, token: string, restoreId: string): Promise<Restore> {
  return until(
    async () => (await call(server, apiCalls.restore_list, { token, query: { limit: 1000 } })).body.items.find((r) => r._id === restoreId)!,
    (restore) => restore !== undefined && restore.status !== 'running',
    `restore ${restoreId}`,
  );
}

/** Starts a run and waits for it to finish. */
export async function runPlan(server: HttpTarget, token: string, planId: string): Promise<RunView> {
  const res = await call(server, apiCalls.snapshot_run, { token, params: { id: planId } });
  expect(res.status, res.text).toBe(202);
  return finishedRun(server, token, res.body._id);
}

/** Starts a restore and waits for it to finish. */
export async function restoreItems(server: HttpTarget, token: string, body: RestoreCreate): Promise<Restore> {
  const res = await call(server, apiCalls.restore_start, { token, body });
  expect(res.status, res.text).toBe(202);
  return finishedRestore(server, token, res.body._id);
}
