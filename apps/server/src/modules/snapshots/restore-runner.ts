import { createHash } from 'node:crypto';
import { createReadStream } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { type RestoreConflict, type RestoreCreate, type RestoreTarget, SNAPSHOT_CATALOG_NAME } from '@bogwan/contracts';
import { Lock, restore } from '@bogwan/vault';
import { AppError, badRequest, conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import { blobKeyOf } from '../../storage/blob-store.js';
import type { NodeRow } from '../files/ports.js';
import type { UserRow } from '../users/users.repo.js';
import type { Catalog, CatalogEntry } from './catalog-index.js';
import { type CatalogCache, readCatalog, stagingRoot } from './catalog-cache.js';
import { type SnapshotContext, errorKeyOf, isAbort, planTarget, runActor } from './context.js';
import type { ListedRestore, ListedRun } from './jobs.repo.js';
import type { HeldOperation } from './operation-lock.js';
import type { PlanRow } from './plans.repo.js';
import { backendOf, cannotRestore, locationOf, openPlanRepository } from './vault-location.js';

const PROGRESS_EVERY_MS = 1000;

/** Selected paths without repeats and without paths inside another selected one. */
export function topmost(items: string[]): string[] {
  const unique = [...new Set(items)].sort();
  return unique.filter((item) => !unique.some((other) => other !== item && item.startsWith(`${other}/`)));
}

const parentOf = (p: string) => (p.includes('/') ? p.slice(0, p.lastIndexOf('/')) : '');

async function sha256File(file: string): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of createReadStream(file)) {
    hash.update(piece as Buffer);
    size += (piece as Buffer).length;
  }
  return { hash: hash.digest('hex'), size };
}

/** What a restore puts back, where, and what it does over a live file of the same name. */
interface RestoreOrder {
  items: string[];
  target: RestoreTarget;
  onConflict: RestoreConflict;
}

interface Placement {
  files: number;
  bytes: number;
  failed: number;
  volumeFull: boolean;
  nodeIds: string[];
}

/**
 * Restores chosen items of a snapshot into the live store, one operation at a time:
 * the backup engine restores them (pack by pack, verified, with a journal) into a
 * staging directory, then each file becomes a blob and a node through the file tree,
 * honouring volume limits. A stopped or failed restore can be retried: the journal skips
 * what is staged already, and files already in place with the same content are kept.
 */
export class RestoreRunner {
  constructor(
    private readonly ctx: SnapshotContext,
    private readonly catalogs: CatalogCache,
  ) {}

  async start(user: UserRow, body: RestoreCreate): Promise<ListedRestore> {
    const { run, plan } = await this.runAndPlan(body.runId);
    const items = topmost(body.items);
    const catalog = await this.catalogs.get(plan, run);
    if (items.some((item) => !catalog.get(item))) throw badRequest('invalid_path');
    // Read before any await: a catalog the cache drops meanwhile is closed.
    const size = items.reduce((sum, item) => sum + catalog.sizeUnder(item), 0);
    await this.checkTarget(user, body.target);
    const id = newId();
    const onConflict = body.onConflict ?? 'keep-both';
    return this.launch(id, user, plan, run, { items, target: body.target, onConflict }, size, async () => {
      await this.ctx.jobs.insertRestore({
        id,
        run_id: run.id,
        status: 'running',
        items: JSON.stringify(items),
        target_kind: body.target.kind,
        target_path: body.target.kind === 'folder' ? body.target.path : null,
        on_conflict: onConflict,
        task_id: null,
        files: 0,
        size,
        failed: 0,
        error: null,
        started_by: user.id,
        started_at: new Date().toISOString(),
        finished_at: null,
      });
    });
  }

  /** Runs a stopped or failed restore again. */
  async retry(user: UserRow, id: string): Promise<ListedRestore> {
    const previous = await this.ctx.jobs.findRestore(id);
    if (!previous) throw notFound();
    if (previous.status !== 'failure' && previous.status !== 'canceled') throw conflict('snapshot_not_restorable_state');
    const { run, plan } = await this.runAndPlan(previous.run_id);
    const target = targetOf(previous);
    await this.checkTarget(user, target);
    const items = JSON.parse(previous.items) as string[];
    const onConflict: RestoreConflict = previous.on_conflict === 'replace' ? 'replace' : 'keep-both';
    return this.launch(id, user, plan, run, { items, target, onConflict }, previous.size, async () => {
      await this.ctx.jobs.updateRestore(id, { status: 'running', error: null, finished_at: null, files: 0, failed: 0, started_by: user.id });
    });
  }

  private async launch(
    id: string,
    user: UserRow,
    plan: PlanRow,
    run: ListedRun,
    order: RestoreOrder,
    size: number,
    record: () => Promise<void>,
  ): Promise<ListedRestore> {
    const { items, target } = order;
    const controller = new AbortController();
    let taskId: string | null = null;
    const held = await this.ctx.lock.acquire('restore', id, async () => {
      if (taskId && (await this.ctx.jobs.taskStatus(taskId)) === 'canceled') controller.abort();
    });
    try {
      await record();
      const where = target.kind === 'folder' ? target.path : 'original';
      await this.ctx.audit.record({
        action: 'snapshot.restore',
        actor: runActor(user.id),
        target: planTarget(plan),
        params: { restoreId: id, runId: run.id, status: 'started', target: where, onConflict: order.onConflict, items: items.join('\n') },
      });
      const name = `${plan.name}: ${items[0]}${items.length > 1 ? ` +${items.length - 1}` : ''}`;
      const task = await this.ctx.tasks().start({ type: 'restore', ownerId: user.id, name, size, restoreId: id }, () => controller.abort());
      taskId = task.id;
      await this.ctx.jobs.updateRestore(id, { task_id: task.id });
      this.ctx.background.track(this.execute(id, task.id, user, plan, run, order, size, controller, held), controller);
      return (await this.ctx.jobs.findRestore(id))!;
    } catch (error) {
      await held.release();
      throw error;
    }
  }

  private async runAndPlan(runId: string): Promise<{ run: ListedRun; plan: PlanRow }> {
    const run = await this.ctx.jobs.findRun(runId);
    if (!run) throw notFound();
    if (run.status !== 'completed' || !run.vault_snapshot_id) throw conflict('snapshot_not_restorable_state');
    const plan = await this.ctx.plans.find(run.plan_id);
    if (!plan) throw notFound();
    return { run, plan };
  }

  /** Another folder must exist and take new files from this user (the one permission check). */
  private async checkTarget(user: UserRow, target: RestoreTarget): Promise<void> {
    if (target.kind !== 'folder') return;
    const folder = await this.ctx.access().require(user, target.path, 'CREATE');
    if (folder.folder !== 1) throw notFound('folder_not_found');
  }

  private async execute(
    id: string,
    taskId: string,
    user: UserRow,
    plan: PlanRow,
    run: ListedRun,
    order: RestoreOrder,
    size: number,
    controller: AbortController,
    held: HeldOperation,
  ): Promise<void> {
    const { ctx } = this;
    const { items } = order;
    const staging = path.join(stagingRoot(ctx.config.dataDir), id);
    const backend = backendOf(locationOf(plan), ctx.config.s3);
    let vaultLock: Lock | null = null;
    let released = false;
    // Freed before the outcome is written: whoever sees it finished may start the next operation.
    const releaseAll = async () => {
      if (released) return;
      released = true;
      await vaultLock?.release().catch(() => {});
      await backend.close().catch(() => {});
      await held.release().catch((e) => ctx.log.error({ err: e }, 'restore operation lock not released'));
    };
    try {
      const repo = await openPlanRepository(ctx, plan, backend);
      vaultLock = await Lock.acquire(backend, 'restore', false);
      await repo.loadIndex();
      await ctx.tasks().update(taskId, { progress: null });
      let result;
      try {
        result = await restore(repo, run.vault_snapshot_id!, staging, { include: [...items, SNAPSHOT_CATALOG_NAME], signal: controller.signal, threads: 1 });
      } catch (error) {
        if (isAbort(error, controller.signal)) throw error;
        ctx.log.error({ err: error, restore: id }, 'restore from the repository failed');
        throw cannotRestore();
      }
      const catalog = await readCatalog(path.join(staging, SNAPSHOT_CATALOG_NAME), ctx.config.dataDir);
      const damaged = new Set(result.failed.map((f) => f.path));
      let placed: Placement;
      try {
        placed = await this.place(user, catalog, order, staging, damaged, size, taskId, controller.signal);
      } finally {
        await catalog.close();
      }
      await ctx.restored.notify(placed.nodeIds, (error) => ctx.log.error({ err: error, restore: id }, 'restored-items listener failed'));
      await releaseAll();
      const ok = placed.failed === 0;
      const error = ok ? null : placed.volumeFull ? 'volume_exceeded_warning' : 'snapshot_cannot_restore';
      await ctx.jobs.updateRestore(id, {
        status: ok ? 'completed' : 'failure',
        files: placed.files,
        failed: placed.failed,
        error,
        finished_at: new Date().toISOString(),
      });
      await ctx.tasks().update(taskId, ok ? { status: 'completed', progress: 100 } : { status: 'failure' });
      if (ok) await fs.rm(staging, { recursive: true, force: true });
      await ctx.audit.record({
        action: 'snapshot.restore',
        actor: runActor(user.id),
        target: planTarget(plan),
        params: { restoreId: id, runId: run.id, status: ok ? 'completed' : 'failure', files: placed.files, failed: placed.failed, items: items.join('\n') },
      });
    } catch (error) {
      const canceled = isAbort(error, controller.signal);
      const key = canceled ? null : errorKeyOf(error, 'request_error_message');
      if (!canceled && !(error instanceof AppError)) ctx.log.error({ err: error, restore: id }, 'restore failed');
      await releaseAll();
      await ctx.jobs
        .updateRestore(id, { status: canceled ? 'canceled' : 'failure', error: key, finished_at: new Date().toISOString() })
        .catch((e) => ctx.log.error({ err: e }, 'restore not updated'));
      await ctx
        .tasks()
        .update(taskId, { status: canceled ? 'canceled' : 'failure' })
        .catch(() => {});
      await ctx.audit.record({
        action: 'snapshot.restore',
        actor: runActor(user.id),
        target: planTarget(plan),
        params: { restoreId: id, runId: run.id, status: canceled ? 'canceled' : 'failure', error: key, items: items.join('\n') },
      });
    } finally {
      await releaseAll();
    }
  }

  /** Puts the staged files into the live store; answers what was placed and what failed. */
  private async place(
    user: UserRow,
    catalog: Catalog,
    { items, target, onConflict }: RestoreOrder,
    staging: string,
    damaged: Set<string>,
    size: number,
    taskId: string,
    signal: AbortSignal,
  ): Promise<Placement> {
    const { ctx } = this;
    const tree = ctx.tree();
    const out: Placement = { files: 0, bytes: 0, failed: 0, volumeFull: false, nodeIds: [] };
    const emails = items.flatMap((item) => catalog.ownersUnder(item).flatMap((owner) => owner.email || []));
    const owners = await ctx.jobs.idsByEmail([...new Set(emails)]);
    const ownerOf = (entry: CatalogEntry) => (entry.owner?.email && owners.get(entry.owner.email)) || user.id;
    const base = target.kind === 'folder' ? ((await tree.resolve(target.path)) ?? null) : null;
    if (target.kind === 'folder' && base?.folder !== 1) throw notFound('folder_not_found');
    const folders = new Map<string, NodeRow>();
    let lastProgress = 0;

    /**
     * The live folder at destination segments, made (with its chain) when missing. `strip`
     * is the part of the snapshot path left out at the destination (another folder).
     */
    const folderAt = async (segments: string[], strip: string): Promise<NodeRow> => {
      let node = base;
      for (let i = 0; i < segments.length; i++) {
        const relative = segments.slice(0, i + 1).join('/');
        let next = folders.get(relative);
        if (!next) {
          const source = catalog.get(strip ? `${strip}/${relative}` : relative);
          next = await tree.ensureFolder(node, segments[i]!, {
            ownerId: source ? ownerOf(source) : user.id,
            backend: catalog.rootBackend(segments[0]!),
            ...(source?.folder ? { mtime: source.mtime } : {}),
          });
          folders.set(relative, next);
        }
        node = next;
      }
      if (!node) throw cannotRestore();
      return node;
    };

    for (const item of items) {
      const strip = target.kind === 'folder' ? parentOf(item) : '';
      for (const entry of catalog.under(item)) {
        signal.throwIfAborted();
        const relative = strip ? entry.path.slice(strip.length + 1) : entry.path;
        const segments = relative.split('/');
        if (entry.folder) {
          await folderAt(segments, strip);
          continue;
        }
        const staged = path.join(staging, ...entry.path.split('/'));
        try {
          if (damaged.has(entry.path)) throw cannotRestore();
          const content = await sha256File(staged);
          if ((entry.hash && content.hash !== entry.hash) || content.size !== entry.size) throw cannotRestore();
          const folder = await folderAt(segments.slice(0, -1), strip);
          const node = await this.placeFile(folder, segments.at(-1)!, entry, { hash: content.hash, staged, ownerId: ownerOf(entry), onConflict, by: user.id });
          out.nodeIds.push(node.id);
          out.files++;
          out.bytes += entry.size;
          await fs.rm(staged, { force: true });
        } catch (error) {
          if (isAbort(error, signal)) throw error;
          out.failed++;
          if ((error as AppError).messageKey === 'volume_exceeded_warning') out.volumeFull = true;
          else if (!(error instanceof AppError)) ctx.log.warn({ err: error, path: entry.path }, 'file not restored');
        }
        if (Date.now() - lastProgress >= PROGRESS_EVERY_MS) {
          lastProgress = Date.now();
          await ctx.tasks().update(taskId, { progress: size > 0 ? Math.min(99, (out.bytes / size) * 100) : null });
        }
      }
    }
    return out;
  }

  /**
   * One file: kept when the same content is already there, else stored and added. On a live
   * file of that name with other content, `keep-both` adds it as `name (1).ext` and `replace`
   * gives the live file this content (its old content becomes a version; `by` is its author).
   */
  private async placeFile(
    folder: NodeRow,
    name: string,
    entry: CatalogEntry,
    { hash, staged, ownerId, onConflict, by }: { hash: string; staged: string; ownerId: string; onConflict: RestoreConflict; by: string },
  ): Promise<NodeRow> {
    const tree = this.ctx.tree();
    const existing = await tree.resolve(`${await tree.pathOf(folder)}/${name}`);
    if (existing && existing.folder === 0 && existing.content_hash === hash) return existing;
    const store = await this.ctx.stores().forBackend(folder.backend);
    if (!store) throw new AppError(400, 'cloud_bucket_missing');
    await tree.assertRoom(await tree.rootOf(folder), entry.size);
    const key = blobKeyOf(hash);
    if ((await store.stat(key))?.size !== entry.size) await store.put(key, createReadStream(staged));
    const content = { size: entry.size, contentHash: hash, blobKey: key, backend: folder.backend, mtime: entry.mtime };
    const node =
      existing && existing.folder === 0 && onConflict === 'replace'
        ? await tree.replaceFile(existing, content, { at: { parentId: folder.id, name: existing.name }, by })
        : await tree.addFile(folder, { name, size: entry.size, contentHash: hash, blobKey: key, ownerId, mtime: entry.mtime }, { keepBoth: true });
    // The collector may have removed an unreferenced copy between the check and the row: put it back.
    if ((await store.stat(key))?.size !== entry.size) await store.put(key, createReadStream(staged));
    return node;
  }
}

function targetOf(row: ListedRestore): RestoreTarget {
  return row.target_kind === 'folder' && row.target_path ? { kind: 'folder', path: row.target_path } : { kind: 'original' };
}
