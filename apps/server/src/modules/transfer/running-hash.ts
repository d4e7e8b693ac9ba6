import { createHash } from 'node:crypto';

/** A recorded chunk as the running hash needs it: index, size and the token of its write. */
export interface HashedChunk {
  idx: number;
  size: number;
  token: string;
}

/** Passes the staged bytes of one recorded chunk to `visit` in order; answers their count. */
export type ChunkReader = (chunk: HashedChunk, visit: (piece: Buffer) => void) => Promise<number>;

/** Passes each piece of a chunk's bytes, in order, to the running hash. */
export type HashTap = (piece: Buffer) => void;

/**
 * Where one upload's SHA-256 is kept: in this process (fed while bytes stream through, or
 * from chunks read back) or on another thread that reads the staged chunks itself.
 */
export interface Digest {
  /** Feeds bytes that stream through this process; absent when the digest reads every chunk itself. */
  readonly tap?: HashTap;
  /** Adds the staged bytes of one recorded chunk; answers their count. */
  add(chunk: HashedChunk): Promise<number>;
  /** The SHA-256 (hex) of everything added; spends the digest. */
  finish(): Promise<string>;
  /** Spends the digest without an answer. */
  drop(): void;
}

/** A digest kept on the event loop: chunks in order are tapped, early ones read back through `read`. */
export function inProcessDigest(read: ChunkReader): Digest {
  const hash = createHash('sha256');
  return {
    tap: (piece) => hash.update(piece),
    add: (chunk) => read(chunk, (piece) => hash.update(piece)),
    finish: async () => hash.digest('hex'),
    drop: () => {},
  };
}

interface Running {
  digest: Digest;
  /** Chunks [0, next) are in the hash. */
  next: number;
  bytes: number;
  /** The token of every chunk in the hash, by index. */
  tokens: string[];
  /** Writes in progress in this process, by chunk index. */
  writing: Map<number, number>;
  /** The chunk whose bytes go into the hash as they arrive. */
  tapping: number | null;
  /** The chunk the catch-up is reading back. */
  reading: number | null;
  /** Once true, this process never answers a hash for the upload: its completion reads it whole. */
  broken: boolean;
  /** Catch-ups run one after another. */
  chain: Promise<void>;
  used: number;
}

/** An entry idle this long belongs to an upload abandoned or finished elsewhere. */
const IDLE_MS = 24 * 60 * 60 * 1000;

/**
 * The SHA-256 of uploads kept while their chunks arrive, so the completion does not read
 * the whole file again. With an in-process digest a chunk's bytes go into the hash while
 * they stream in when it is the next chunk the hash needs; every other chunk (and every
 * chunk, with a digest that reads them itself) is read back from staging once the chunks
 * before it are in (it was just written, so usually from the page cache).
 *
 * Held in memory only (a hash state cannot be saved): after a restart, or when anything
 * looks doubtful — a chunk written again after it was hashed, two writes of one chunk at
 * once, a failed write that had fed the hash — the upload is marked and completes through
 * one full read of its staged bytes, as before. At completion every hashed chunk's token
 * is compared with the token of the record the completion claimed, so a chunk written
 * again by another process also sends the upload the slow way.
 */
export class RunningHashes {
  private readonly uploads = new Map<string, Running>();

  constructor(private readonly now: () => number = Date.now) {}

  /** Uploads with a hash in memory (for tests and health). */
  get size(): number {
    return this.uploads.size;
  }

  /**
   * A write of chunk `index` begins. Answers a tap for its bytes when it is the chunk the
   * hash needs next and the digest takes streamed bytes; `end` must follow, whatever
   * happens to the write. `digest` makes the upload's digest when it has none in memory.
   */
  begin(uploadId: string, index: number, digest: () => Digest): HashTap | undefined {
    const state = this.open(uploadId, digest);
    if (index < state.next || index === state.reading || state.writing.has(index)) state.broken = true;
    state.writing.set(index, (state.writing.get(index) ?? 0) + 1);
    const tap = state.digest.tap;
    if (!tap || state.broken || index !== state.next || state.tapping !== null) return undefined;
    state.tapping = index;
    return (piece) => {
      tap(piece);
      state.bytes += piece.length;
    };
  }

  /**
   * A write of chunk `index` ended: `token` when its bytes are stored and recorded,
   * undefined when it failed.
   */
  end(uploadId: string, index: number, token: string | undefined): void {
    const state = this.uploads.get(uploadId);
    if (!state) return;
    state.used = this.now();
    const left = (state.writing.get(index) ?? 1) - 1;
    if (left > 0) state.writing.set(index, left);
    else state.writing.delete(index);
    if (state.tapping !== index) return;
    state.tapping = null;
    if (token === undefined) {
      // Some of its bytes are in the hash already: no way back.
      state.broken = true;
      return;
    }
    state.tokens[index] = token;
    state.next = index + 1;
  }

  /** Reads back, in order, recorded chunks the hash can take now; runs after the catch-ups before it. */
  catchUp(uploadId: string, recorded: HashedChunk[]): Promise<void> {
    const state = this.uploads.get(uploadId);
    if (!state || state.broken) return Promise.resolve();
    state.chain = state.chain.then(() => this.readOn(state, recorded));
    return state.chain;
  }

  /**
   * The completion's answer: the SHA-256 (hex) and byte count of the whole upload when
   * every chunk is in the hash, each from the write that `claimed` names; undefined when
   * the upload must be read whole. Forgets the upload either way.
   */
  async take(uploadId: string, claimed: HashedChunk[]): Promise<{ hash: string; length: number } | undefined> {
    const state = this.uploads.get(uploadId);
    if (!state) return undefined;
    let spent = false;
    try {
      await this.catchUp(uploadId, claimed);
      const whole =
        !state.broken &&
        state.writing.size === 0 &&
        state.next === claimed.length &&
        claimed.every((chunk, i) => chunk.idx === i && chunk.token !== '' && state.tokens[i] === chunk.token);
      if (!whole) return undefined;
      const hash = await state.digest.finish();
      spent = true;
      return { hash, length: state.bytes };
    } catch {
      // The digest is lost (its thread went away): the completion reads the file whole.
      return undefined;
    } finally {
      if (!spent) state.digest.drop();
      this.uploads.delete(uploadId);
    }
  }

  /** Drops an upload's hash (its session is gone). */
  forget(uploadId: string): void {
    this.uploads.get(uploadId)?.digest.drop();
    this.uploads.delete(uploadId);
  }

  private open(uploadId: string, digest: () => Digest): Running {
    const now = this.now();
    let state = this.uploads.get(uploadId);
    if (!state) {
      for (const [id, other] of this.uploads) if (now - other.used > IDLE_MS && other.writing.size === 0) this.forget(id);
      state = {
        digest: digest(),
        next: 0,
        bytes: 0,
        tokens: [],
        writing: new Map(),
        tapping: null,
        reading: null,
        broken: false,
        chain: Promise.resolve(),
        used: now,
      };
      this.uploads.set(uploadId, state);
    }
    state.used = now;
    return state;
  }

  private async readOn(state: Running, recorded: HashedChunk[]): Promise<void> {
    const byIndex = new Map(recorded.map((chunk) => [chunk.idx, chunk]));
    for (;;) {
      const chunk = byIndex.get(state.next);
      if (state.broken || !chunk || !chunk.token || state.tapping !== null || state.writing.has(chunk.idx)) return;
      state.reading = chunk.idx;
      try {
        const length = await state.digest.add(chunk);
        if (length !== chunk.size) throw new Error(`chunk ${chunk.idx} read back ${length} bytes, expected ${chunk.size}`);
        state.bytes += length;
        state.tokens[chunk.idx] = chunk.token;
        state.next = chunk.idx + 1;
      } catch {
        state.broken = true;
        return;
      } finally {
        state.reading = null;
      }
    }
  }
}
