import type { FastifyBaseLogger } from 'fastify';
import type { AccessLogRepo, NewAccessLogRow } from './access-log.repo.js';

const FLUSH_INTERVAL_MS = 1000;
const FLUSH_BATCH = 500;
/** Trim the table after this many written rows, so it stays near its bound. */
const TRIM_EVERY = 1000;

/**
 * Buffers access-log rows and writes them in batches, off the request path. At most
 * the last second of entries is lost if the process dies; `close` writes the rest.
 */
export class AccessLogWriter {
  private buffer: NewAccessLogRow[] = [];
  private sinceTrim = 0;
  private flushing: Promise<void> = Promise.resolve();
  private readonly timer: NodeJS.Timeout;

  constructor(
    private readonly repo: AccessLogRepo,
    private readonly maxRows: number,
    private readonly log: FastifyBaseLogger,
  ) {
    this.timer = setInterval(() => void this.flush(), FLUSH_INTERVAL_MS);
    this.timer.unref();
  }

  add(row: NewAccessLogRow): void {
    this.buffer.push(row);
    if (this.buffer.length >= FLUSH_BATCH) void this.flush();
  }

  /** Writes what is buffered; resolves when it (and any earlier flush) is on disk. */
  flush(): Promise<void> {
    this.flushing = this.flushing.then(() => this.writeBuffered());
    return this.flushing;
  }

  async close(): Promise<void> {
    clearInterval(this.timer);
    await this.flush();
  }

  private async writeBuffered(): Promise<void> {
    const rows = this.buffer;
    if (rows.length === 0) return;
    this.buffer = [];
    try {
      await this.repo.insertMany(rows);
      this.sinceTrim += rows.length;
      if (this.sinceTrim >= TRIM_EVERY) {
        this.sinceTrim = 0;
        await this.repo.trimTo(this.maxRows);
      }
    } catch (error) {
      this.log.error({ err: error, rows: rows.length }, 'access log write failed');
    }
  }
}
