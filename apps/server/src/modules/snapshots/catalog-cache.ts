import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SNAPSHOT_CATALOG_NAME } from '@bogwan/contracts';
import { Lock, type Repository, restore, UnreachableError } from '@bogwan/vault';
import { AppError } from '../../errors.js';
import { Catalog } from './catalog-index.js';
import type { SnapshotContext } from './context.js';
import type { RunRow } from './jobs.repo.js';
import type { PlanRow } from './plans.repo.js';
import { backendOf, cannotRestore, locationOf, openPlanRepository, unreachable } from './vault-location.js';

const KEEP = 4;
/** A catalog dropped from the cache is closed this long afterwards. */
const CLOSE_AFTER_MS = 10_000;

/** The directory under the data directory where restores stage files. */
export function stagingRoot(dataDir: string): string {
  return path.join(dataDir, 'restore-staging');
}

/** A catalog file or directory untouched this long was left by a process that stopped. */
const LEFT_BEHIND_MS = 60 * 60 * 1000;

/**
 * Removes the catalog reads (`catalog-*` under the staging root) that a stopped process left
 * behind. Only those untouched for an hour: another process may be reading a catalog there
 * now (its directory and index file are new), and one that is open keeps working anyway
 * (its file is read through the handle it holds).
 */
export async function removeLeftCatalogs(dataDir: string, now = Date.now()): Promise<void> {
  const root = stagingRoot(dataDir);
  for (const name of await fs.readdir(root).catch(() => [] as string[])) {
    if (!name.startsWith('catalog-')) continue;
    const stat = await fs.stat(path.join(root, name)).catch(() => null);
    if (stat && now - stat.mtimeMs >= LEFT_BEHIND_MS) await fs.rm(path.join(root, name), { recursive: true, force: true });
  }
}

/**
 * Reads a restored catalog file (either format) into an index file under the staging root;
 * a missing or unreadable one means the snapshot cannot be restored. The caller closes it.
 */
export async function readCatalog(file: string, dataDir: string): Promise<Catalog> {
  try {
    return await Catalog.read(file, stagingRoot(dataDir));
  } catch {
    throw cannotRestore();
  }
}

/**
 * Catalogs of recent snapshots, read from their repository on first use (the restore
 * wizard browses them) and kept open for the few last ones (their rows are in index
 * files, not in memory). A catalog handed out is used at once, before any await: one
 * dropped from the cache is closed.
 */
export class CatalogCache {
  private readonly cache = new Map<string, Promise<Catalog>>();

  constructor(private readonly ctx: SnapshotContext) {}

  /** The run's catalog; a request for one being read waits for that read. */
  get(plan: PlanRow, run: RunRow): Promise<Catalog> {
    if (run.status !== 'completed' || !run.vault_snapshot_id) return Promise.reject(new AppError(409, 'snapshot_not_restorable_state'));
    let entry = this.cache.get(run.id);
    if (entry) {
      this.cache.delete(run.id);
      this.cache.set(run.id, entry);
      return entry;
    }
    const loading = this.load(plan, run.vault_snapshot_id);
    entry = loading;
    this.cache.set(run.id, loading);
    loading.catch(() => {
      if (this.cache.get(run.id) === loading) this.cache.delete(run.id);
    });
    while (this.cache.size > KEEP) {
      const oldest = this.cache.keys().next().value!;
      const dropped = this.cache.get(oldest)!;
      this.cache.delete(oldest);
      // Closed a while later: whoever was handed it uses it at once.
      dropped.then(
        (catalog) => setTimeout(() => void catalog.close(), CLOSE_AFTER_MS).unref(),
        () => {},
      );
    }
    return entry;
  }

  private async load(plan: PlanRow, snapshotId: string): Promise<Catalog> {
    const backend = backendOf(locationOf(plan), this.ctx.config.s3);
    const dir = path.join(stagingRoot(this.ctx.config.dataDir), `catalog-${randomBytes(8).toString('hex')}`);
    try {
      const repo: Repository = await openPlanRepository(this.ctx, plan, backend);
      const lock = await Lock.acquire(backend, 'restore', false);
      try {
        await repo.loadIndex();
        await restore(repo, snapshotId, dir, { include: [SNAPSHOT_CATALOG_NAME], threads: 1 });
      } finally {
        await lock.release().catch(() => {});
      }
      return await readCatalog(path.join(dir, SNAPSHOT_CATALOG_NAME), this.ctx.config.dataDir);
    } catch (error) {
      if (error instanceof AppError) throw error;
      if (error instanceof UnreachableError) throw unreachable();
      this.ctx.log.warn({ err: error, plan: plan.id, snapshot: snapshotId }, 'snapshot catalog unreadable');
      throw cannotRestore();
    } finally {
      await fs.rm(dir, { recursive: true, force: true }).catch(() => {});
      await backend.close().catch(() => {});
    }
  }
}
