import fs from 'node:fs/promises';
import path from 'node:path';
import { SNAPSHOT_CATALOG_NAME } from '@bogwan/contracts';
import { Lock, type Repository, backup, snapshotFilePieces } from '@bogwan/vault';
import { newId } from '../../ids.js';
import type { NodeRow } from '../files/ports.js';
import { CatalogBuilder, ParentCatalog } from './catalog.js';
import { type SnapshotContext, errorKeyOf, isAbort, planTarget, runActor } from './context.js';
import type { RunRow } from './jobs.repo.js';
import { liveSource } from './live-source.js';
import type { HeldOperation } from './operation-lock.js';
import type { PlanRow } from './plans.repo.js';
import { announceFinishedRun } from './snapshot-finished.js';
import { backendOf, locationOf, openPlanRepository } from './vault-location.js';

/** The directory under the data directory where runs write their catalogs (one directory a run, removed when it ends). */
export function snapshotWorkRoot(dataDir: string): string {
  return path.join(dataDir, 'snapshot-work');
}

/** Progress goes to the task panel at most this often. */
const PROGRESS_EVERY_MS = 1000;

/** The root folders a plan backs up now: all live ones, or the chosen ones that still exist. */
export async function rootsOf(ctx: SnapshotContext, plan: PlanRow): Promise<NodeRow[]> {
  const roots = await ctx.tree().roots();
  if (plan.target_all === 1) return roots;
  const chosen = new Set(JSON.parse(plan.target_roots) as string[]);
  return roots.filter((r) => chosen.has(r.id));
}

/**
 * Runs snapshots: one at a time (the operation lock), in the background after the call
 * answers, with progress, size and cancel through the task panel.
 */
export class SnapshotRunner {
  constructor(private readonly ctx: SnapshotContext) {}

  /** Starts a run of a plan; 409 `snapshot_operation_in_progress` while another operation runs. */
  async start(plan: PlanRow, trigger: 'manual' | 'schedule', userId: string | null): Promise<RunRow> {
    const runId = newId();
    const controller = new AbortController();
    let taskId: string | null = null;
    const held = await this.ctx.lock.acquire('snapshot', runId, async () => {
      if (taskId && (await this.ctx.jobs.taskStatus(taskId)) === 'canceled') controller.abort();
    });
    try {
      const now = new Date().toISOString();
      const run: RunRow = {
        id: runId,
        plan_id: plan.id,
        status: 'running',
        trigger,
        backup_type: plan.backup_type,
        task_id: null,
        vault_snapshot_id: null,
        files: 0,
        size: 0,
        bytes_added: 0,
        error: null,
        started_by: userId,
        started_at: now,
        finished_at: null,
      };
      await this.ctx.jobs.insertRun(run);
      // The start is recorded too: a run whose process dies leaves at least this.
      await this.ctx.audit.record({ action: 'snapshot.run', actor: runActor(userId), target: planTarget(plan), params: { runId, status: 'started', trigger } });
      const owner = await this.ctx.jobs.taskOwner(userId ?? plan.created_by);
      const estimate = (await rootsOf(this.ctx, plan)).reduce((sum, r) => sum + r.usage_bytes, 0);
      if (owner) {
        const task = await this.ctx
          .tasks()
          .start({ type: 'snapshot', ownerId: owner, name: plan.name, size: estimate, snapshotId: runId }, () => controller.abort());
        taskId = task.id;
        run.task_id = task.id;
        await this.ctx.jobs.updateRun(runId, { task_id: task.id });
      }
      this.ctx.background.track(this.execute(plan, run, estimate, controller, held), controller);
      return run;
    } catch (error) {
      await held.release();
      throw error;
    }
  }

  /** The parent snapshot's catalog, copied to `file` and read through; null (everything is walked) when it cannot be read. */
  private async previousCatalog(repo: Repository, snapshotId: string, file: string, changes: Map<string, number>): Promise<ParentCatalog | null> {
    try {
      return await ParentCatalog.read(snapshotFilePieces(repo, snapshotId, SNAPSHOT_CATALOG_NAME), file, changes);
    } catch (error) {
      this.ctx.log.warn({ err: error, snapshot: snapshotId }, 'parent snapshot catalog unreadable; walking everything');
      return null;
    }
  }

  private async execute(plan: PlanRow, run: RunRow, estimate: number, controller: AbortController, held: HeldOperation): Promise<void> {
    const { ctx } = this;
    const backend = backendOf(locationOf(plan), ctx.config.s3);
    // The run's catalog files (its own and its parent's): removed however the run ends, before its outcome is written.
    const work = path.join(snapshotWorkRoot(ctx.config.dataDir), run.id);
    let catalog: CatalogBuilder | null = null;
    let vaultLock: Lock | null = null;
    let released = false;
    // Freed before the outcome is written: whoever sees it finished may start the next operation.
    const releaseAll = async () => {
      if (released) return;
      released = true;
      await vaultLock?.release().catch(() => {});
      await backend.close().catch(() => {});
      await catalog?.abandon();
      await fs.rm(work, { recursive: true, force: true }).catch((e) => ctx.log.warn({ err: e }, 'snapshot catalog files not removed'));
      await held.release().catch((e) => ctx.log.error({ err: e }, 'snapshot operation lock not released'));
    };
    let lastProgress = 0;
    try {
      // Left by a run whose process stopped: no other run can be going on (the operation lock is held).
      for (const name of await fs.readdir(path.dirname(work)).catch(() => [] as string[])) {
        await fs.rm(path.join(path.dirname(work), name), { recursive: true, force: true });
      }
      await fs.mkdir(work, { recursive: true });
      const repo = await openPlanRepository(ctx, plan, backend);
      vaultLock = await Lock.acquire(backend, 'backup', false);
      repo.holdWith(vaultLock);
      await repo.loadIndex();
      // Read before the walk: a change made while it runs shows in the next run's counts.
      const changes = await ctx.jobs.folderChanges();
      const roots = await rootsOf(ctx, plan);
      if (roots.length === 0 && plan.target_all !== 1) throw Object.assign(new Error('no target'), { messageKey: 'snapshot_target_invalid' });
      // Full runs read every file again; the parent then only links the history.
      const parent = await ctx.jobs.latestCompleted(plan.id);
      const previous =
        plan.backup_type === 'full' || !parent?.vault_snapshot_id
          ? null
          : await this.previousCatalog(repo, parent.vault_snapshot_id, path.join(work, 'parent-catalog'), changes);
      const builder = (catalog = await CatalogBuilder.create(path.join(work, 'catalog'), changes, previous));
      let catalogSize = 0;
      const result = await backup(
        repo,
        liveSource(
          ctx.tree(),
          ctx.stores(),
          roots,
          builder,
          async () => {
            const built = await builder.build(await ctx.jobs.emails(builder.ownerIds()));
            catalogSize = built.size;
            return built;
          },
          previous?.unchanged ?? null,
        ),
        {
          paths: roots.map((r) => r.name).sort(),
          full: plan.backup_type === 'full',
          ...(parent?.vault_snapshot_id ? { parent: parent.vault_snapshot_id } : {}),
          host: `bogwan-plan-${plan.id}`,
          tags: [`plan:${plan.id}`, `run:${run.id}`],
          signal: controller.signal,
          threads: 1,
          onProgress: (stats) => {
            if (Date.now() - lastProgress < PROGRESS_EVERY_MS || !run.task_id) return;
            lastProgress = Date.now();
            const progress = estimate > 0 ? Math.min(99, (stats.totalSize / estimate) * 100) : null;
            void ctx
              .tasks()
              .update(run.task_id, { progress })
              .catch(() => {});
          },
        },
      );
      // The catalog is the product's own record, not one of the user's files.
      const files = Math.max(0, result.stats.files - 1);
      const size = Math.max(0, result.stats.totalSize - catalogSize);
      const finished = new Date().toISOString();
      await releaseAll();
      const outcome = { status: 'completed', vault_snapshot_id: result.id, files, size, bytes_added: result.stats.bytesStored, finished_at: finished };
      await ctx.jobs.updateRun(run.id, outcome);
      announceFinishedRun(ctx, plan, { ...run, ...outcome });
      if (run.task_id) await ctx.tasks().update(run.task_id, { status: 'completed', progress: 100, size });
      await ctx.audit.record({
        action: 'snapshot.run',
        actor: runActor(run.started_by),
        target: planTarget(plan),
        params: { runId: run.id, status: 'completed', files, size, snapshot: result.id.slice(0, 8) },
      });
    } catch (error) {
      const canceled = isAbort(error, controller.signal);
      const key = canceled ? null : errorKeyOf(error, 'request_error_message');
      if (!canceled) ctx.log.error({ err: error, plan: plan.id, run: run.id }, 'snapshot failed');
      await releaseAll();
      const outcome = { status: canceled ? 'canceled' : 'failure', error: key, finished_at: new Date().toISOString() };
      await ctx.jobs.updateRun(run.id, outcome).catch((e) => ctx.log.error({ err: e }, 'snapshot run not updated'));
      announceFinishedRun(ctx, plan, { ...run, ...outcome });
      if (run.task_id)
        await ctx
          .tasks()
          .update(run.task_id, { status: canceled ? 'canceled' : 'failure' })
          .catch(() => {});
      await ctx.audit.record({
        action: 'snapshot.run',
        actor: runActor(run.started_by),
        target: planTarget(plan),
        params: { runId: run.id, status: canceled ? 'canceled' : 'failure', error: key },
      });
    } finally {
      await releaseAll();
    }
  }
}
