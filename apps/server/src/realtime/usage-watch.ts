import { SOCKET_EVENTS, type UsageChangedEvent } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { RootUsageRepo, RootUsageRow } from './root-usage.repo.js';

/** How often the roots' figures are compared while sockets are open: at most one event per this per process. */
export const USAGE_CHECK_INTERVAL_MS = 1500;

/** Where the watcher sends its events: this process's own sockets only. */
export interface LocalSockets {
  /** Sockets open on this process. */
  localSocketCount(): number;
  /** To every socket open on this process (not through the Redis adapter). */
  emitToLocalSockets(event: string, payload: unknown): void;
}

/**
 * Tells open sockets when a root folder's usage or volume limit changed, so the usage bar
 * follows uploads, deletes, purges, moves between roots, restores, syncs and limit changes
 * without a reload, whichever path (browser, WebDAV, webhook, another process) made them.
 *
 * Each process compares the roots' figures in the database (shared by every process) with
 * what it saw last, at most every `USAGE_CHECK_INTERVAL_MS`, and only while it has sockets:
 * a burst of 1,000 uploads becomes one event per interval naming the roots that changed,
 * and each process tells only its own sockets, so no event is sent twice through Redis.
 * The event carries root ids only; each client reads its own figures (which are filtered by
 * its permissions) through `GET /api/file/root/usage`.
 */
export class UsageWatch {
  /** Figures per root at the last check; undefined until a first check set the baseline. */
  private seen: Map<string, string> | undefined;
  private timer: NodeJS.Timeout | undefined;
  private checking = false;

  constructor(
    private readonly repo: RootUsageRepo,
    private readonly sockets: LocalSockets,
    private readonly log: FastifyBaseLogger,
  ) {}

  /**
   * Starts (or restarts, with another interval) the periodic comparison. The baseline is
   * taken at once, before any socket can connect, so a change made between a client's
   * first read and the first check is still told.
   */
  async start(intervalMs = USAGE_CHECK_INTERVAL_MS): Promise<void> {
    clearInterval(this.timer);
    if (!this.seen) await this.check().catch((error: unknown) => this.log.warn({ err: error }, 'root usage check failed'));
    this.timer = setInterval(() => void this.tick(), intervalMs);
    this.timer.unref();
  }

  stop(): void {
    clearInterval(this.timer);
  }

  /** Compares now; answers the ids of the roots whose figures changed since the last check (and tells the sockets of them). */
  async check(): Promise<string[]> {
    const rows = await this.repo.roots();
    const now = new Map(rows.map((row) => [row.id, figuresOf(row)]));
    const before = this.seen;
    this.seen = now;
    // The first check only sets the baseline: a client reads its figures when its socket connects.
    if (!before) return [];
    const changed = [...now].filter(([id, figures]) => before.get(id) !== figures).map(([id]) => id);
    for (const id of before.keys()) if (!now.has(id)) changed.push(id);
    if (changed.length > 0) this.sockets.emitToLocalSockets(SOCKET_EVENTS.usage, { roots: changed } satisfies UsageChangedEvent);
    return changed;
  }

  private async tick(): Promise<void> {
    if (this.checking) return;
    // Without sockets nobody listens: no reads. The baseline is kept, so the first check
    // after a socket opens names every root changed meanwhile (a spare read for that
    // client at worst, never a missed change).
    if (this.sockets.localSocketCount() === 0) return;
    this.checking = true;
    try {
      await this.check();
    } catch (error) {
      this.log.warn({ err: error }, 'root usage check failed');
    } finally {
      this.checking = false;
    }
  }
}

function figuresOf(row: RootUsageRow): string {
  return `${Number(row.usage_bytes)}/${row.volume_limit === null ? '-' : Number(row.volume_limit)}`;
}
