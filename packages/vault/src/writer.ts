import { type BlobType } from './blob-index.js';
import { sealBlobParts } from './codec.js';
import { decodeIndex, encodeIndex, encodePackListing, type IndexContents } from './index-file.js';
import { type FinishedPack, PackBuilder, packName } from './pack.js';
import type { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';

// Packs being stored at once (a rename on disk, a PUT from the spool file on S3).
const MAX_UPLOADS = 2;
// Blobs this small are sealed inline: a worker round trip costs more than the work. Local
// one-chunk files arrive sealed by their reader (addSealed); this is for tree blobs and files
// of other sources. Kept low: in a first backup this thread is the busiest, so sealing 1–4
// KiB blobs here made the run slower than sending them, in batches, to the workers
// (docs/decisions.md).
const INLINE_BELOW = 1024;
/**
 * A pack also ends at this many blobs. Each blob waiting for its pack's upload is a string in
 * `queued`, and the upload makes an entry per blob: a 16 MiB pack of one-chunk files of a few
 * hundred bytes held ~100,000 of each (measured: the heap rose ~20 MiB at every upload of a
 * server snapshot at 1M files).
 */
export const PACK_BLOBS = 16_384;
/** Pack listings gathered before they are written as an index file (~50,000 blobs, restic's figure). */
const INDEX_FILE_BYTES = 50_000 * (32 + 1 + 4 + 4 + 4);

/** Counters a writer keeps for snapshot statistics. */
export interface WriterStats {
  blobsAdded: number;
  bytesAdded: number;
  bytesStored: number;
  packsWritten: number;
}

/** Deduplicates, seals and packs blobs, uploads packs and writes index files. */
export class BlobWriter {
  readonly stats: WriterStats = { blobsAdded: 0, bytesAdded: 0, bytesStored: 0, packsWritten: 0 };
  private builder: PackBuilder;
  private readonly queued = new Set<string>();
  /** Listings (encoded) of the packs stored but not yet in an index file. */
  private readonly unindexed: Buffer[] = [];
  private unindexedBytes = 0;
  private sealing = 0;
  private packsWaiting = 0;
  private readonly sealWaiters: (() => void)[] = [];
  private readonly inFlight = new Set<Promise<void>>();
  private failure: unknown = null;

  private readonly written = new Set<string>();

  /** With ignoreIndex (prune), blobs already indexed elsewhere are written again. */
  constructor(
    private readonly repo: Repository,
    private readonly pool: CryptoPool,
    private readonly options: { ignoreIndex?: boolean; indexFileBytes?: number } = {},
  ) {
    this.builder = this.newBuilder();
  }

  private newBuilder(): PackBuilder {
    return new PackBuilder(() => this.repo.backend.spool());
  }

  /** True when the blob is stored or already on its way into a pack. */
  has(id: Buffer): boolean {
    const hex = id.toString('hex');
    if (this.queued.has(hex)) return true;
    return this.options.ignoreIndex ? this.written.has(hex) : this.repo.index.has(id);
  }

  /**
   * Adds an already sealed blob (sealed where it was read, or repacked) unless this writer
   * has it; returns once it is accepted, like add().
   */
  async addSealed(id: Buffer, type: BlobType, sealed: Buffer, rawLength: number): Promise<boolean> {
    this.throwIfFailed();
    if (this.has(id)) return false;
    this.queued.add(id.toString('hex'));
    this.stats.blobsAdded++;
    this.stats.bytesAdded += rawLength;
    await this.accept(id, type, [sealed], rawLength);
    return true;
  }

  /** Hands over the packs uploaded but not yet listed in an index file. */
  takeUnindexed(): IndexContents['packs'] {
    this.unindexedBytes = 0;
    return decodeIndex(encodeIndex({ superseded: [], packs: [] }, this.unindexed.splice(0))).packs;
  }

  /**
   * Adds a blob unless known; returns once it is accepted (not necessarily stored).
   * The caller gives `data` up: it may be moved to a worker thread.
   */
  async add(id: Buffer, type: BlobType, data: Buffer): Promise<boolean> {
    this.throwIfFailed();
    if (this.has(id)) return false;
    this.queued.add(id.toString('hex'));
    const size = data.length; // `data` is handed over to a worker below
    this.stats.blobsAdded++;
    this.stats.bytesAdded += size;
    if (size < INLINE_BELOW) {
      await this.accept(id, type, sealBlobParts(this.repo.key.encKey, id, data), size);
      return true;
    }
    // Also wait while a finished pack waits for an upload slot: sealed blobs would
    // otherwise keep arriving and finish pack after pack (16 MiB each) in memory.
    while (this.sealing > this.pool.bounds.sealing || this.packsWaiting > 0) await new Promise<void>((r) => this.sealWaiters.push(r));
    this.sealing += size;
    const job = this.pool
      .seal(id, data)
      .then((sealed) => this.accept(id, type, sealed, size))
      .catch((err) => {
        this.failure ??= err;
      })
      .finally(() => {
        this.sealing -= size;
        this.sealWaiters.splice(0).forEach((r) => r());
      });
    this.track(job);
    return true;
  }

  private track(p: Promise<void>): void {
    this.inFlight.add(p);
    void p.finally(() => this.inFlight.delete(p));
  }

  /** Puts a sealed blob (its pieces) into the pack being built. */
  private async accept(id: Buffer, type: BlobType, sealed: Buffer[], rawLength: number): Promise<void> {
    const builder = this.builder;
    const added = builder.add(id, type, sealed, rawLength);
    if ((builder.size >= this.repo.config.packSize || builder.count >= PACK_BLOBS) && builder === this.builder) await this.finishPack();
    await added;
  }

  private async finishPack(): Promise<void> {
    if (this.builder.count === 0) return;
    const builder = this.builder;
    this.builder = this.newBuilder();
    this.packsWaiting++;
    let pack: FinishedPack;
    try {
      pack = await builder.finish(this.repo.key.encKey);
      while (this.uploads() >= MAX_UPLOADS) await Promise.race(this.inFlight);
    } catch (err) {
      await builder.discard();
      throw err;
    } finally {
      this.packsWaiting--;
      this.sealWaiters.splice(0).forEach((r) => r());
    }
    const upload = this.upload(pack).catch((err) => {
      this.failure ??= err;
    });
    this.track(upload);
  }

  private uploadCount = 0;
  private uploads(): number {
    return this.uploadCount;
  }

  private async upload(pack: FinishedPack): Promise<void> {
    this.uploadCount++;
    try {
      await pack.spool.commit(packName(pack.id));
    } finally {
      this.uploadCount--;
    }
    this.stats.packsWritten++;
    this.stats.bytesStored += pack.size;
    const entries = pack.entries();
    for (const e of entries) {
      if (this.options.ignoreIndex) this.written.add(e.id.toString('hex'));
      else this.repo.index.add(e.id, { type: e.type, pack: pack.id, offset: e.offset, length: e.length, rawLength: e.rawLength });
      this.queued.delete(e.id.toString('hex'));
    }
    const listing = encodePackListing(pack.id, entries);
    this.unindexed.push(listing);
    this.unindexedBytes += listing.length;
    // A large backup lists its packs in several index files as it goes, as restic does: one
    // file for a million blobs was ~45 MiB held to the end, and as much again to seal it
    // and to read it back. A prune (ignoreIndex) writes its own index, superseding others.
    if (!this.options.ignoreIndex && this.unindexedBytes >= (this.options.indexFileBytes ?? INDEX_FILE_BYTES)) await this.writeUnindexed();
  }

  private async writeUnindexed(): Promise<string> {
    const listings = this.unindexed.splice(0);
    this.unindexedBytes = 0;
    return this.repo.writeIndex({ superseded: [], packs: [] }, listings);
  }

  private throwIfFailed(): void {
    if (this.failure) throw this.failure;
  }

  /** Waits for every accepted blob to be sealed, packed and uploaded. */
  async flush(): Promise<void> {
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    this.throwIfFailed();
    await this.finishPack();
    while (this.inFlight.size > 0) await Promise.all([...this.inFlight]);
    this.throwIfFailed();
  }

  /** Flushes, then writes one index file for the packs uploaded since the last call. */
  async checkpointIndex(): Promise<string | null> {
    await this.flush();
    if (this.unindexed.length === 0) return null;
    return this.writeUnindexed();
  }
}
