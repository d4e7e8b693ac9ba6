import { randomBytes } from 'node:crypto';
import type { FastifyBaseLogger } from 'fastify';
import { conflict } from '../../errors.js';
import type { JobsRepo, OperationRow } from './jobs.repo.js';

/** How often a holder says it is alive, and when silence means its process is gone. */
export const HEARTBEAT_MS = 5_000;
export const STALE_MS = 60_000;

export type OperationKind = 'snapshot' | 'restore';

/** A held operation: refreshed until released; `onBeat` runs with every heartbeat. */
export interface HeldOperation {
  readonly holder: string;
  release(): Promise<void>;
}

/**
 * One snapshot or restore at a time across every server process (the spec: creation and
 * restore only when no other operation is in progress). The database row is taken with
 * an insert that only one process wins; a holder that stops refreshing it for a minute
 * (its process died) is replaced by compare-and-set, and its job marked failed.
 */
export class OperationLock {
  constructor(
    private readonly repo: JobsRepo,
    private readonly log: FastifyBaseLogger,
    /** Marks the job of a holder that went silent as failed (run or restore, and its task). */
    private readonly onInterrupted: (kind: OperationKind, refId: string) => Promise<void>,
  ) {}

  /** Takes the lock for a job or throws 409 `snapshot_operation_in_progress`. */
  async acquire(kind: OperationKind, refId: string, onBeat?: () => Promise<void>): Promise<HeldOperation> {
    const row: OperationRow = { kind, ref_id: refId, holder: randomBytes(12).toString('hex'), heartbeat_at: new Date().toISOString() };
    if (!(await this.repo.tryHold(row)) && !(await this.takeOverStale(row))) throw conflict('snapshot_operation_in_progress');
    let released = false;
    const timer = setInterval(() => {
      void (async () => {
        if (released) return;
        await this.repo.heartbeat(row.holder, new Date().toISOString());
        await onBeat?.();
      })().catch((error) => this.log.warn({ err: error }, 'snapshot heartbeat failed'));
    }, HEARTBEAT_MS);
    timer.unref();
    return {
      holder: row.holder,
      release: async () => {
        released = true;
        clearInterval(timer);
        await this.repo.release(row.holder);
      },
    };
  }

  /** Frees a lock whose holder went silent; answers whether `next` (if given) now holds it. */
  async takeOverStale(next?: OperationRow): Promise<boolean> {
    const seen = await this.repo.heldOperation();
    if (!seen) return next ? this.repo.tryHold(next) : false;
    if (Date.parse(seen.heartbeat_at) > Date.now() - STALE_MS) return false;
    const claim = next ?? { ...seen, holder: `sweeper-${randomBytes(6).toString('hex')}`, heartbeat_at: new Date().toISOString() };
    if (!(await this.repo.takeOver(seen, claim))) return false;
    this.log.warn({ kind: seen.kind, ref: seen.ref_id }, 'snapshot operation of a stopped process taken over');
    await this.onInterrupted(seen.kind as OperationKind, seen.ref_id);
    if (!next) await this.repo.release(claim.holder);
    return true;
  }
}
