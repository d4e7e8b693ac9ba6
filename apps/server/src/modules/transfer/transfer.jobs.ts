import type { FastifyBaseLogger } from 'fastify';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import { type BlobStore, blobKeyOf } from '../../storage/blob-store.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { TransferRepo } from './transfer.repo.js';

const HOUR_MS = 60 * 60_000;
/** An upload untouched this long is abandoned. */
export const UPLOAD_MAX_IDLE_MS = 24 * HOUR_MS;
/** Bytes without a row, and temporary files, are left alone this long (a write may be on its way). */
export const ORPHAN_MIN_AGE_MS = 24 * HOUR_MS;

/** An upload pins a blob for the seconds its completion takes: one an hour old belongs to a process that died. */
export const PIN_MAX_AGE_MS = HOUR_MS;

const BLOB_KEY = /^[0-9a-f]{2}\/[0-9a-f]{2}\/([0-9a-f]{64})$/;

/**
 * Clean-up of the transfer side, run by the hourly housekeeping: abandoned uploads,
 * unreferenced blobs, blobs left without a row by a crash, stray temporary files.
 */
export class TransferJobs {
  constructor(
    private readonly repo: TransferRepo,
    private readonly stores: BlobStores,
    private readonly log: FastifyBaseLogger,
  ) {}

  tasks(): HousekeepingTask[] {
    return [
      { name: 'abandoned uploads', run: () => this.removeAbandonedUploads(new Date(Date.now() - UPLOAD_MAX_IDLE_MS)).then(() => undefined) },
      // Counts first: a count a crash left too high is fixed, and its blob collected, in the same run.
      { name: 'blob reference counts', run: () => this.repairReferenceCounts(new Date(Date.now() - PIN_MAX_AGE_MS)).then(() => undefined) },
      { name: 'unreferenced blobs', run: () => this.collectUnreferenced().then(() => undefined) },
      { name: 'orphan blob files', run: () => this.collectOrphans(new Date(Date.now() - ORPHAN_MIN_AGE_MS)).then(() => undefined) },
    ];
  }

  /**
   * The stores clean-up may delete in: the cloud store, and the server directory only when
   * it carries the blob marker (a directory that held other things before it was set as
   * `server.path` is never swept, so nothing of anyone else's is deleted).
   */
  private async sweepableStores(): Promise<BlobStore[]> {
    const local = await this.stores.local();
    const cloud = await this.stores.cloud();
    return [...(local.marked ? [local] : []), ...(cloud ? [cloud] : [])];
  }

  /** Sessions idle since `before` and their staged chunks; staged chunks whose session is gone. */
  async removeAbandonedUploads(before: Date): Promise<number> {
    let removed = 0;
    for (const session of await this.repo.staleSessions(before.toISOString())) {
      if (!(await this.repo.claimSession(session.id))) continue;
      const store = await this.stores.forBackend(session.backend);
      await store?.staging.discard(session.id);
      removed++;
    }
    for (const store of await this.sweepableStores()) {
      for await (const staged of store.staging.list()) {
        if (staged.modified < before && !(await this.repo.sessionExists(staged.uploadId))) {
          await store.staging.discard(staged.uploadId);
          removed++;
        }
      }
    }
    return removed;
  }

  /**
   * Sets every blob's reference count to its references again (nodes, sync pins, upload
   * pins), after dropping upload pins older than `stalePinsBefore` (their completion died).
   * Answers how many counts were wrong; each is logged.
   */
  async repairReferenceCounts(stalePinsBefore: Date): Promise<number> {
    const fixed = await this.repo.repairRefCounts(stalePinsBefore.toISOString());
    if (fixed > 0) this.log.warn({ fixed }, 'blob reference counts repaired');
    return fixed;
  }

  /**
   * Blobs whose reference count reached 0: the row (only while still unreferenced) and
   * the bytes go in one transaction, so an upload of the same content meanwhile waits and
   * then stores its own copy. A blob whose bytes could not be deleted keeps its row (the next run tries again).
   */
  async collectUnreferenced(): Promise<number> {
    let removed = 0;
    for (const blob of await this.repo.unreferencedBlobs()) {
      const store = await this.stores.forBackend(blob.backend);
      if (!store) continue;
      if (await this.repo.deleteUnreferenced(blob.backend, blob.hash, () => store.delete(blobKeyOf(blob.hash)))) removed++;
    }
    return removed;
  }

  /** Blob files older than `before` that no row names (a crash between write and row), and old temporary files. */
  async collectOrphans(before: Date): Promise<number> {
    let removed = 0;
    for (const store of await this.sweepableStores()) {
      let batch: string[] = [];
      const flush = async () => {
        const known = await this.repo.knownHashes(store.backend, batch);
        for (const hash of batch) {
          // A row made since the batch was read (an upload of this content) keeps the bytes.
          if (known.has(hash) || !(await this.repo.deleteOrphan(store.backend, hash, () => store.delete(blobKeyOf(hash))))) continue;
          this.log.info({ backend: store.backend, hash }, 'orphan blob removed');
          removed++;
        }
        batch = [];
      };
      for await (const blob of store.list('')) {
        const hash = BLOB_KEY.exec(blob.key)?.[1];
        if (!hash || blob.modified >= before) continue;
        batch.push(hash);
        if (batch.length >= 500) await flush();
      }
      await flush();
    }
    removed += await (await this.stores.local()).sweepTemp(before);
    return removed;
  }
}
