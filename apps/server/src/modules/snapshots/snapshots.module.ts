import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { resolveServerSecret } from '../auth/server-secret.js';
import { requireDecorators } from '../../http/wiring.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { CatalogCache, removeLeftCatalogs } from './catalog-cache.js';
import { BackgroundJobs, type SnapshotContext } from './context.js';
import { JobsRepo } from './jobs.repo.js';
import { OperationLock } from './operation-lock.js';
import { PasswordBox } from './password-box.js';
import { PlansRepo } from './plans.repo.js';
import { PlansService } from './plans.service.js';
import { RestoreRunner } from './restore-runner.js';
import { restoreRoutes } from './restores.routes.js';
import { RestoredItems } from './restored-items.js';
import { SnapshotScheduler } from './scheduler.js';
import { announceFinishedRun } from './snapshot-finished.js';
import { SnapshotRunner } from './snapshot-runner.js';
import { snapshotRoutes } from './snapshots.routes.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Snapshots and restores: the scheduler (tests tick it) and the restored-items seam (share links). */
    snapshots: { scheduler: SnapshotScheduler; restored: RestoredItems };
  }
}

export interface SnapshotsModuleDeps {
  config: Config;
  db: Db;
  audit: AuditRecorder;
}

/**
 * Wires snapshot plans, runs, restores and the schedule ticker. Needs `app.fileTree`,
 * `app.fileAccess`, `app.blobStores` and `app.tasks` (read when work starts).
 */
export async function registerSnapshots(app: FastifyInstance, deps: SnapshotsModuleDeps): Promise<void> {
  requireDecorators(app, 'snapshots', ['tasks', 'fileTree', 'fileAccess', 'blobStores', 'webhooks']);
  const jobs = new JobsRepo(deps.db);
  const plansRepo = new PlansRepo(deps.db);
  const restored = new RestoredItems();
  const lock = new OperationLock(jobs, app.log, async (kind, refId) => {
    await jobs.markInterrupted(kind, refId, 'snapshot_interrupted', new Date().toISOString());
    const row = kind === 'snapshot' ? await jobs.findRun(refId) : await jobs.findRestore(refId);
    if (row?.task_id) await app.tasks.update(row.task_id, { status: 'failure' });
    if (row && 'plan_id' in row && row.error === 'snapshot_interrupted') announceFinishedRun(ctx, { id: row.plan_id, name: row.plan_name }, row);
  });
  const ctx: SnapshotContext = {
    config: deps.config,
    plans: plansRepo,
    jobs,
    lock,
    box: new PasswordBox(resolveServerSecret(deps.config.secret, deps.config.dataDir)),
    audit: deps.audit,
    log: app.log,
    restored,
    background: new BackgroundJobs(),
    tasks: () => app.tasks,
    tree: () => app.fileTree,
    access: () => app.fileAccess,
    stores: () => app.blobStores,
    hooks: () => app.webhooks,
  };
  const catalogs = new CatalogCache(ctx);
  const runner = new SnapshotRunner(ctx);
  const restores = new RestoreRunner(ctx, catalogs);
  const scheduler = new SnapshotScheduler(ctx, runner);
  app.decorate('snapshots', { scheduler, restored });
  // The dashboard's "last snapshot" card.
  app.decorate('snapshotSummary', {
    lastRun: async () => {
      const [run] = (await jobs.listRuns({ skip: 0, limit: 1 })).rows;
      return run ? { name: run.plan_name, status: run.status, startedAt: run.started_at, finishedAt: run.finished_at, size: Number(run.size) } : null;
    },
  });
  await app.register(snapshotRoutes, { plans: new PlansService(ctx), runner, jobs, catalogs });
  await app.register(restoreRoutes, { restores, jobs });

  await removeLeftCatalogs(deps.config.dataDir);
  let stop: (() => void) | undefined;
  app.addHook('onReady', async () => {
    stop = scheduler.start();
  });
  // Before the database closes (onClose): running jobs stop and record how they ended.
  app.addHook('preClose', async () => {
    stop?.();
    await ctx.background.stopAll();
  });
}
