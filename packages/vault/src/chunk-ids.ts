import { BlobType } from './blob-index.js';
import type { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';
import type { BlobWriter } from './writer.js';

// Chunks this small are hashed on the calling thread: a worker round trip costs more.
const HASH_OFF_THREAD = 64 * 1024;

/**
 * The blob ids of one file's chunks, in order. Large chunks are hashed on the worker
 * threads (the bytes go there and come back, moved, not copied) while the next ones are
 * read and cut; each chunk is handed to the writer once its id is known, so a known
 * chunk is never sealed.
 */
export class ChunkIds {
  private readonly ids: Promise<string>[] = [];
  private readonly hashing: { done: Promise<string>; size: number }[] = [];
  private hashingBytes = 0;

  constructor(
    private readonly repo: Repository,
    private readonly pool: CryptoPool,
    private readonly writer: BlobWriter,
  ) {}

  /** Adds the next chunk; `data` is given up (it may be moved to a worker). */
  async add(data: Buffer): Promise<void> {
    if (data.length < HASH_OFF_THREAD) {
      const id = this.repo.id(data);
      this.ids.push(Promise.resolve(id.toString('hex')));
      await this.writer.add(id, BlobType.Data, data);
      return;
    }
    const size = data.length;
    const done = this.pool.hash(data).then(async (hashed) => {
      await this.writer.add(hashed.id, BlobType.Data, hashed.data);
      return hashed.id.toString('hex');
    });
    // Awaited by all() or by the bound below; a file given up half way leaves it unawaited.
    done.catch(() => {});
    this.ids.push(done);
    this.hashing.push({ done, size });
    this.hashingBytes += size;
    while (this.hashingBytes > this.pool.bounds.hashing) {
      const first = this.hashing.shift()!;
      this.hashingBytes -= first.size;
      await first.done;
    }
  }

  /** Every chunk's id, in order, once each chunk is with the writer. */
  all(): Promise<string[]> {
    return Promise.all(this.ids);
  }
}
