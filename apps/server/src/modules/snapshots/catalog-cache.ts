import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { SNAPSHOT_CATALOG_NAME } from '@bogwan/contracts';
import { Lock, type Repository, restore, UnreachableError } from '@bogwan/vault';
import { AppError } from '../../errors.js';
import { Catalog } from './catalog.js';
import type { SnapshotContext } from './context.js';
import type { RunRow } from './jobs.repo.js';
import type { PlanRow } from './plans.repo.js';
import { backendOf, cannotRestore, locationOf, openPlanRepository, unreachable } from './vault-location.js';

const KEEP = 4;

/** The directory under the data directory where restores stage files. */
export function stagingRoot(dataDir: string): string {
  return path.join(dataDir, 'restore-staging');
}

/** Reads a restored catalog file (either format); a missing or unreadable one means the snapshot cannot be restored. */
export async function readCatalog(file: string): Promise<Catalog> {
  try {
    return await Catalog.read(file);
  } catch {
    throw cannotRestore();
  }
}

/**
 * Catalogs of recent snapshots, read from their repository on first use (the restore
 * wizard browses them) and kept in memory for the few last ones.
 */
export class CatalogCache {
  private readonly cache = new Map<string, Catalog>();

  constructor(private readonly ctx: SnapshotContext) {}

  async get(plan: PlanRow, run: RunRow): Promise<Catalog> {
    if (run.status !== 'completed' || !run.vault_snapshot_id) throw new AppError(409, 'snapshot_not_restorable_state');
    const cached = this.cache.get(run.id);
    if (cached) {
      this.cache.delete(run.id);
      this.cache.set(run.id, cached);
      return cached;
    }
    const catalog = await this.load(plan, run.vault_snapshot_id);
    this.cache.set(run.id, catalog);
    while (this.cache.size > KEEP) this.cache.delete(this.cache.keys().next().value!);
    return catalog;
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
      return await readCatalog(path.join(dir, SNAPSHOT_CATALOG_NAME));
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
