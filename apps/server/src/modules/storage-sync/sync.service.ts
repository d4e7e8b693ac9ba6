import { type Backend, type Sync, type SyncMode, checkFolderName, normalizeName, splitPath, type VolumeList } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { AppError, badRequest, conflict } from '../../errors.js';
import { newId } from '../../ids.js';
import { BlobMissingError, blobKeyOf } from '../../storage/blob-store.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { FileAccess, NodeRow } from '../files/ports.js';
import type { TasksService } from '../tasks/tasks.service.js';
import type { UserRow } from '../users/users.repo.js';
import { NameTakenError, liveNodes, type SyncRepo, type SyncRow, SyncNotRunningError, type WantedBlob } from './sync.repo.js';
import { toSync, toVolumeList } from './sync.presenter.js';

/** Copy passes before a sync gives up on a folder that keeps changing. */
const MAX_PASSES = 20;
/** A running sync whose process has not written for this long is taken as dead. */
export const SYNC_STALE_MS = 2 * 60_000;
const HEARTBEAT_MS = 20_000;
const PROGRESS_INTERVAL_MS = 1000;

class SyncCanceled extends Error {}

/**
 * Moves or copies a root folder's contents between the server and cloud backends as a
 * background task. Blobs are copied first (each pinned on the target as it lands), while
 * the folder stays in use and reads come from where each file is; then one transaction
 * switches the folder (move) or inserts the copy (copy). Files written meanwhile are
 * caught by further passes. A sync interrupted by a restart is marked failed and its
 * pins released; starting it again skips blobs the target already holds.
 */
export class SyncService {
  private readonly cancellers = new Map<string, () => void>();
  private readonly runs = new Set<Promise<void>>();
  private recoveryTimer: NodeJS.Timeout | undefined;
  private closing = false;

  constructor(
    private readonly repo: SyncRepo,
    private readonly stores: BlobStores,
    private readonly access: () => FileAccess,
    private readonly tasks: () => TasksService,
    private readonly audit: AuditRecorder,
    private readonly log: FastifyBaseLogger,
  ) {}

  async volumes(): Promise<VolumeList> {
    const [roots, running, cloud] = await Promise.all([this.repo.liveRoots(), this.repo.running(), this.stores.cloud()]);
    return toVolumeList(roots, new Set(running.map((s) => s.root_id)), cloud !== null);
  }

  async list(): Promise<Sync[]> {
    return (await this.repo.recent()).map(toSync);
  }

  /** Starts a move or copy of the root folder at `path` to the other backend; answers the sync. */
  async start(user: UserRow, body: { path: string; mode: SyncMode; name?: string }, ip: string | null): Promise<Sync> {
    if (splitPath(body.path)?.length !== 1) throw badRequest('invalid_path');
    const root = await this.access().require(user, body.path, 'SETTING');
    const source = root.backend as Backend;
    const target: Backend = source === 'server' ? 'cloud' : 'server';
    if (!(await this.stores.forBackend(target))) throw conflict('cloud_bucket_missing');
    // Stored in NFC, as every name (docs/decisions.md, "Names are stored in NFC").
    const name = body.mode === 'copy' ? normalizeName(body.name ?? '').trim() : null;
    if (name !== null && checkFolderName(name)) throw badRequest('rules_folder');
    if (name !== null && (await this.repo.liveRoots()).some((r) => r.name === name)) throw conflict('file_exists_warning');
    await this.recoverStale();
    if ((await this.repo.running()).some((s) => s.root_id === root.id)) throw conflict('sync_in_progress');
    const now = new Date().toISOString();
    const row: SyncRow = {
      id: newId(),
      task_id: newId(),
      root_id: root.id,
      path: body.path,
      mode: body.mode,
      source,
      target,
      target_name: name,
      status: 'running',
      bytes_total: 0,
      bytes_done: 0,
      error: null,
      owner_id: user.id,
      created_at: now,
      updated_at: now,
    };
    // The check above answers most; two starts at the same moment meet at the unique index.
    if (!(await this.repo.insert(row))) throw conflict('sync_in_progress');
    await this.tasks().start(
      {
        id: row.task_id,
        type: 'sync',
        ownerId: user.id,
        name: name ? `${root.name} → ${name} (${target})` : `${root.name} → ${target}`,
        clientPath: body.path,
      },
      () => this.cancellers.get(row.id)?.(),
    );
    await this.audit.record({
      action: 'storage.sync',
      target: syncTarget(row),
      params: { syncId: row.id, status: 'started', mode: body.mode, from: source, to: target, ...(name ? { name } : {}) },
      ip,
    });
    const run = this.run(row, root).finally(() => this.runs.delete(run));
    this.runs.add(run);
    return toSync(row);
  }

  /** Cancels a running sync by its task id (the task panel's cancel); 409 `task_not_cancelable` otherwise. */
  async cancel(user: UserRow, taskId: string, ip: string | null): Promise<void> {
    const sync = await this.repo.findByTask(taskId);
    if (!sync || !(await this.repo.end(sync.id, 'canceled'))) throw conflict('task_not_cancelable');
    this.cancellers.get(sync.id)?.();
    await this.tasks().update(sync.task_id, { status: 'canceled' });
    await this.audit.record({ action: 'storage.sync', target: syncTarget(sync), params: { syncId: sync.id, status: 'canceled', mode: sync.mode }, ip });
  }

  /** Marks syncs whose process stopped writing as failed and drops their pins. */
  async recoverStale(): Promise<number> {
    const before = new Date(Date.now() - SYNC_STALE_MS).toISOString();
    let recovered = 0;
    for (const sync of await this.repo.running()) {
      if (sync.updated_at >= before || this.cancellers.has(sync.id)) continue;
      if (!(await this.repo.end(sync.id, 'failure', 'interrupted', before))) continue;
      await this.repo.releasePins(sync.id);
      await this.tasks().update(sync.task_id, { status: 'failure' });
      recovered += 1;
    }
    return recovered;
  }

  /** Recovers interrupted syncs now and every minute. */
  startRecovery(): void {
    void this.recoverStale().catch((error: unknown) => this.log.warn({ err: error }, 'sync recovery failed'));
    this.recoveryTimer = setInterval(() => {
      void this.recoverStale().catch((error: unknown) => this.log.warn({ err: error }, 'sync recovery failed'));
    }, 60_000);
    this.recoveryTimer.unref();
  }

  /** Stops running syncs (they stay restartable) and waits for them. */
  async close(): Promise<void> {
    if (this.recoveryTimer) clearInterval(this.recoveryTimer);
    this.closing = true;
    for (const cancel of this.cancellers.values()) cancel();
    await Promise.allSettled([...this.runs]);
  }

  private async run(sync: SyncRow, root: NodeRow): Promise<void> {
    let canceled = false;
    this.cancellers.set(sync.id, () => {
      canceled = true;
    });
    const heartbeat = setInterval(() => void this.repo.heartbeat(sync.id).catch(() => undefined), HEARTBEAT_MS);
    heartbeat.unref();
    const stopIfCanceled = async () => {
      if (canceled || (await this.repo.status(sync.id)) !== 'running') throw new SyncCanceled();
    };
    let outcome: 'completed' | 'canceled' | 'failure' = 'failure';
    let error: string | null = null;
    try {
      await this.copyAndFinish(sync, root, stopIfCanceled);
      outcome = 'completed';
    } catch (caught) {
      if (this.closing) {
        error = 'interrupted';
      } else if (caught instanceof SyncCanceled || caught instanceof SyncNotRunningError) {
        outcome = 'canceled';
      } else {
        error = caught instanceof AppError ? caught.messageKey : caught instanceof NameTakenError ? 'file_exists_warning' : 'request_error_message';
        this.log.error({ err: caught, sync: sync.id }, 'storage sync failed');
      }
    } finally {
      clearInterval(heartbeat);
      this.cancellers.delete(sync.id);
    }
    try {
      await this.repo.releasePins(sync.id);
      if (outcome === 'failure' && (await this.repo.end(sync.id, 'failure', error))) {
        await this.tasks().update(sync.task_id, { status: 'failure' });
        const params = { syncId: sync.id, status: 'failure', mode: sync.mode, error };
        await this.audit.record({
          action: 'storage.sync',
          actor: { kind: 'account', id: sync.owner_id, accountId: sync.owner_id },
          target: syncTarget(sync),
          params,
        });
      }
      if (outcome === 'canceled' && canceled && (await this.repo.end(sync.id, 'canceled'))) await this.tasks().update(sync.task_id, { status: 'canceled' });
      if (outcome === 'completed') {
        await this.tasks().update(sync.task_id, { progress: 100, status: 'completed' });
        const params = {
          syncId: sync.id,
          status: 'completed',
          mode: sync.mode,
          from: sync.source,
          to: sync.target,
          ...(sync.target_name ? { name: sync.target_name } : {}),
        };
        await this.audit.record({
          action: 'storage.sync',
          actor: { kind: 'account', id: sync.owner_id, accountId: sync.owner_id },
          target: syncTarget(sync),
          params,
        });
      }
    } catch (finishError) {
      this.log.error({ err: finishError, sync: sync.id }, 'storage sync not finished cleanly');
    }
  }

  /** Copy passes until the final transaction finds every file's blob on the target. */
  private async copyAndFinish(sync: SyncRow, root: NodeRow, stopIfCanceled: () => Promise<void>): Promise<void> {
    const target = await this.stores.forBackend(sync.target);
    if (!target) throw new AppError(409, 'cloud_bucket_missing');
    let done = 0;
    let total = 0;
    let lastWrite = 0;
    const report = async (force = false) => {
      if (!force && Date.now() - lastWrite < PROGRESS_INTERVAL_MS) return;
      lastWrite = Date.now();
      await this.repo.progress(sync.id, done, total);
      const percent = total === 0 ? 99 : Math.min(99, Math.floor((done / total) * 100));
      await this.tasks().update(sync.task_id, { progress: percent, size: total });
    };
    for (let pass = 0; pass < MAX_PASSES; pass++) {
      await stopIfCanceled();
      const pinned = await this.repo.pinnedHashes(sync.id);
      const missing = this.wanted(await this.repo.nodesOfRoot(root.id), sync, root.id).filter((blob) => !pinned.has(blob.hash));
      total += missing.reduce((sum, blob) => sum + blob.size, 0);
      await report(true);
      for (const blob of missing) {
        await stopIfCanceled();
        await this.copyBlob(sync, blob);
        pinned.add(blob.hash);
        done += blob.size;
        await report();
      }
      const left =
        sync.mode === 'move' ? await this.repo.switchBackend(sync, pinned) : await this.repo.copyTree(sync, sync.target_name!, sync.owner_id, pinned);
      if (left === 0) return;
    }
    throw new Error('the folder kept changing; sync stopped');
  }

  /** Distinct blobs the target needs: a move's files not on it yet (trash too), a copy's live files. */
  private wanted(nodes: NodeRow[], sync: SyncRow, rootId: string): WantedBlob[] {
    const files = (sync.mode === 'move' ? nodes.filter((n) => n.backend !== sync.target) : liveNodes(nodes, rootId)).filter(
      (n) => n.folder !== 1 && n.content_hash,
    );
    const byHash = new Map<string, WantedBlob>();
    for (const file of files) byHash.set(file.content_hash!, { backend: file.backend, hash: file.content_hash!, size: file.size });
    return [...byHash.values()];
  }

  /** Pins the blob on the target, then copies its bytes there unless the target has them already. */
  private async copyBlob(sync: SyncRow, blob: WantedBlob): Promise<void> {
    const key = blobKeyOf(blob.hash);
    await this.repo.pin(sync.id, sync.target, blob.hash, blob.size);
    const target = await this.stores.forBackend(sync.target);
    if (!target) throw new AppError(409, 'cloud_bucket_missing');
    if ((await target.stat(key))?.size === blob.size) return;
    if (blob.backend === sync.target) throw new Error(`blob ${blob.hash} missing on ${sync.target}`);
    const from = await this.stores.forBackend(blob.backend);
    if (!from) throw new AppError(409, 'cloud_bucket_missing');
    try {
      await target.put(key, await from.get(key));
    } catch (error) {
      if (error instanceof BlobMissingError) throw new Error(`blob ${blob.hash} missing on ${blob.backend}`);
      throw error;
    }
  }
}

/** The audit target of a sync: its root folder. */
function syncTarget(sync: Pick<SyncRow, 'root_id' | 'path'>) {
  return { kind: 'node' as const, id: sync.root_id, path: sync.path };
}
