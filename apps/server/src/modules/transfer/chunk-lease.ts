import { conflict } from '../../errors.js';
import type { HashTap } from './running-hash.js';
import type { LeaseAnswer, TransferRepo } from './transfer.repo.js';

/** How long a chunk writer's lease lasts in the database without a renewal (a writer that died holds it this long at most). */
export const LEASE_TTL_MS = 20_000;
/** A writer renews its lease this often while its bytes arrive. */
const RENEW_EVERY_MS = LEASE_TTL_MS / 5;
/** A second writer of a chunk waits this long for the first to finish (or for a dead writer's lease to run out). */
export const LEASE_WAIT_MS = LEASE_TTL_MS + 5_000;
/** How often a waiting writer asks again. */
export const LEASE_POLL_MS = 500;
/**
 * A writer writes only while its last lease (taken or renewed) was asked for less than
 * this long ago by its own clock: half the lease, so another process, whose clock may be
 * up to that much ahead, still sees the lease live until this writer has stopped.
 */
const WRITE_WINDOW_MS = LEASE_TTL_MS / 2;

/** The writer lost its lease before its bytes were all written: nothing of it may be recorded. */
export class LeaseLostError extends Error {
  constructor() {
    super('chunk writer lease lost');
  }
}

/**
 * The lease of one writer of one chunk (docs/decisions.md, "Uploads: chunk leases"): taken
 * in the database before the first byte is written into staging, renewed in the background
 * while bytes arrive, checked (by this process's clock, no round trip) before each piece is
 * handed to the store, and ended by the chunk's record or by `release`.
 */
export class ChunkLease {
  private validUntil: number;
  private lost = false;
  private readonly timer: NodeJS.Timeout;

  private constructor(
    private readonly repo: TransferRepo,
    readonly sessionId: string,
    readonly idx: number,
    readonly token: string,
    askedAt: number,
  ) {
    this.validUntil = askedAt + WRITE_WINDOW_MS;
    this.timer = setInterval(() => void this.renew(), RENEW_EVERY_MS);
    this.timer.unref();
  }

  /** Takes the lease, or answers why not: the chunk is recorded already, or the session is gone. */
  static async take(repo: TransferRepo, sessionId: string, idx: number, token: string): Promise<ChunkLease | Exclude<LeaseAnswer, 'taken'>> {
    const askedAt = Date.now();
    const answer = await repo.takeLease(sessionId, idx, token, askedAt + LEASE_TTL_MS, askedAt);
    if (answer !== 'taken') return answer;
    return new ChunkLease(repo, sessionId, idx, token, askedAt);
  }

  /** True while this writer may still write. */
  get alive(): boolean {
    return !this.lost && Date.now() < this.validUntil;
  }

  /**
   * A tap for the chunk's source (called with each piece before the piece is handed on):
   * fails with LeaseLostError, so the source fails, once the lease has ended; passes the
   * piece to `then` otherwise. No extra step per piece on the way to the store.
   */
  guard(then?: HashTap): HashTap {
    return (piece) => {
      if (!this.alive) throw new LeaseLostError();
      then?.(piece);
    };
  }

  /** Stops renewing (the record ended the lease, or the write failed). */
  stop(): void {
    clearInterval(this.timer);
  }

  /** Stops renewing and gives the lease up. */
  async release(): Promise<void> {
    this.stop();
    await this.repo.releaseLease(this.sessionId, this.idx, this.token);
  }

  private async renew(): Promise<void> {
    if (this.lost) return;
    const askedAt = Date.now();
    try {
      if (await this.repo.renewLease(this.sessionId, this.idx, this.token, askedAt + LEASE_TTL_MS)) this.validUntil = askedAt + WRITE_WINDOW_MS;
      else this.lost = true;
    } catch {
      // The database did not answer: the window runs out unless a later renewal succeeds.
    }
  }
}

/** A second writer of a chunk being written, or a chunk sent again with other bytes. */
export const chunkRefused = () => conflict('upload_chunk_invalid');
