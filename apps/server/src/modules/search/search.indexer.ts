import { setImmediate as nextTurn, setTimeout as sleep } from 'node:timers/promises';
import type { FastifyBaseLogger } from 'fastify';
import type { BlobStore } from '../../storage/blob-store.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { NodeRow } from '../files/ports.js';
import { extractText, isExtractable } from './extract/index.js';
import type { PendingFile, SearchRepo, TextRow } from './search.repo.js';

/** Files taken per round; added files wait this long so a burst of uploads is one round. */
const BATCH = 20;
/** Nodes a sweep looks at per statement (search.repo `pendingFiles`): a few milliseconds of the event loop each. */
const SWEEP_WINDOW = 500;
/**
 * The share of the event loop a sweep may take: after each window it rests for the time the
 * window took times (1 / share - 1), at most SWEEP_REST_MAX_MS. At a million files the
 * start-up sweep then takes a minute or two instead of holding every request back for its
 * whole length (docs/decisions/search.md).
 */
const SWEEP_SHARE = 0.2;
const SWEEP_REST_MAX_MS = 1000;
const SETTLE_MS = 1000;
/** Characters of extracted text held before a round's rows are written (bounds memory with long texts). */
const HELD_CHARS_MAX = 4 * 1_048_576;

/** Rests after `busyMs` of sweeping so that the sweep keeps to its share of the event loop. */
function rest(busyMs: number): Promise<unknown> {
  const ms = Math.min(SWEEP_REST_MAX_MS, busyMs * (1 / SWEEP_SHARE - 1));
  return ms < 1 ? nextTurn() : sleep(ms, undefined, { ref: false });
}

/**
 * Extracts the text of added files in the background, one content at a time (copies share
 * it). It is housekeeping the user never started, so it shows no task in anyone's task
 * panel (it once appeared there as a storage sync). Added files arrive through the FileTree's `onFileAdded`; a
 * sweep (at start and hourly) picks up whatever was missed (a restart, another process).
 */
export class SearchIndexer {
  private readonly waiting = new Map<string, PendingFile>();
  private timer: NodeJS.Timeout | undefined;
  private running: Promise<void> | undefined;
  private sweeping = false;
  /** Where the sweep goes on (the last node id of its last window), and the files it found there not yet taken. */
  private sweptTo = '';
  private swept: PendingFile[] = [];
  private closed = false;

  constructor(
    private readonly repo: SearchRepo,
    private readonly stores: () => BlobStores,
    private readonly log: FastifyBaseLogger,
    private readonly settleMs = SETTLE_MS,
  ) {}

  /** The FileTree listener: never throws, never waits. */
  readonly fileAdded = (node: NodeRow): void => {
    if (!node.content_hash || !node.blob_key || node.folder === 1) return;
    const { id, name, size, content_hash, backend, blob_key, owner_id } = node;
    this.waiting.set(content_hash, { id, name, size, content_hash, backend, blob_key, owner_id });
    this.schedule(this.settleMs);
  };

  /** Looks for files whose text was never extracted and extracts it. */
  sweep(): Promise<void> {
    if (!this.sweeping) this.sweptTo = '';
    this.sweeping = true;
    this.schedule(0);
    return this.idle();
  }

  /** Resolves once nothing is waiting or running. */
  async idle(): Promise<void> {
    while (this.timer || this.running) {
      if (this.running) await this.running;
      else await new Promise((resolve) => setTimeout(resolve, 10));
    }
  }

  async close(): Promise<void> {
    this.closed = true;
    clearTimeout(this.timer);
    this.timer = undefined;
    await this.running;
  }

  private schedule(delay: number): void {
    if (this.closed || this.running) return;
    if (this.timer) {
      if (delay > 0) return;
      clearTimeout(this.timer);
    }
    this.timer = setTimeout(() => {
      this.timer = undefined;
      this.running = this.drain()
        .catch((error) => this.log.warn({ err: error }, 'search indexing stopped'))
        .finally(() => {
          this.running = undefined;
          if (this.waiting.size > 0 || this.sweeping || this.swept.length > 0) this.schedule(this.settleMs);
        });
    }, delay);
    this.timer.unref();
  }

  private async drain(): Promise<void> {
    while (!this.closed) {
      let batch: PendingFile[];
      if (this.waiting.size > 0) {
        batch = [...this.waiting.values()].slice(0, BATCH);
        for (const file of batch) this.waiting.delete(file.content_hash);
      } else if (this.swept.length > 0 || this.sweeping) {
        if (this.swept.length === 0) {
          const started = performance.now();
          const window = await this.repo.pendingFiles(this.sweptTo, SWEEP_WINDOW);
          this.swept = window.files;
          if (window.next === undefined) this.sweeping = false;
          else this.sweptTo = window.next;
          // A window of indexed files: on to the next one, after other work had its share.
          if (this.swept.length === 0) {
            await rest(performance.now() - started);
            continue;
          }
        }
        batch = this.swept.splice(0, BATCH);
      } else {
        return;
      }
      const saved = await this.indexBatch(batch);
      // A sweep that could store nothing (the database refuses) stops instead of looping.
      if (saved === 0 && this.waiting.size === 0) {
        this.sweeping = false;
        this.swept = [];
      }
    }
  }

  /**
   * Extracts and stores the text of each content once; answers how many rows were stored.
   * The rows of a round are written together, in one transaction (several for long texts).
   */
  private async indexBatch(files: PendingFile[]): Promise<number> {
    const known = await this.repo.knownHashes(files.map((file) => file.content_hash));
    const todo = [...new Map(files.filter((file) => !known.has(file.content_hash)).map((file) => [file.content_hash, file])).values()];
    // Files without text are recorded at once; the rest are extracted owner by owner.
    let saved = await this.save(
      todo.filter((f) => !isExtractable(f.name)).map((file) => ({ hash: file.content_hash, status: 'skipped' as const, body: '', truncated: false })),
    );
    const byOwner = new Map<string, PendingFile[]>();
    for (const file of todo.filter((f) => isExtractable(f.name))) {
      const key = file.owner_id ?? '';
      byOwner.set(key, [...(byOwner.get(key) ?? []), file]);
    }
    for (const group of byOwner.values()) {
      let rows: TextRow[] = [];
      let held = 0;
      for (const file of group) {
        if (this.closed) return saved + (await this.save(rows));
        const row = await this.extract(file);
        rows.push(row);
        held += row.body.length;
        // Long texts are written early rather than held in memory together.
        if (held >= HELD_CHARS_MAX) {
          saved += await this.save(rows);
          rows = [];
          held = 0;
        }
        await nextTurn();
      }
      saved += await this.save(rows);
    }
    return saved;
  }

  /** Extracts one file's text; a damaged or unreadable file gives a failed row. */
  private async extract(file: PendingFile): Promise<TextRow> {
    try {
      const store = await this.stores().forBackend(file.backend);
      if (!store) throw new Error(`no store for the ${file.backend} backend`);
      const extracted = await extractText(file.name, { size: file.size, read: (max) => readStart(store, file.blob_key, Math.min(file.size, max)) });
      return extracted.status === 'indexed'
        ? { hash: file.content_hash, status: 'indexed', body: extracted.text, truncated: extracted.truncated }
        : { hash: file.content_hash, status: 'skipped', body: '', truncated: false };
    } catch (error) {
      this.log.warn({ err: error, node: file.id }, 'text not extracted for search');
      return { hash: file.content_hash, status: 'failed', body: '', truncated: false };
    }
  }

  /** Stores rows together; when that fails, one by one, so one bad row loses no other. Answers how many were stored. */
  private async save(rows: TextRow[]): Promise<number> {
    if (rows.length === 0) return 0;
    try {
      await this.repo.saveTexts(rows);
      return rows.length;
    } catch (error) {
      if (rows.length === 1) {
        this.log.warn({ err: error, hash: rows[0]!.hash }, 'search text not stored');
        return 0;
      }
      let saved = 0;
      for (const row of rows) saved += await this.save([row]);
      return saved;
    }
  }
}

/** The first `length` bytes of a blob (a range read), never more. */
async function readStart(store: BlobStore, key: string, length: number): Promise<Buffer> {
  if (length <= 0) return Buffer.alloc(0);
  const stream = await store.get(key, { start: 0, end: length - 1 });
  const chunks: Buffer[] = [];
  let total = 0;
  for await (const chunk of stream as AsyncIterable<Buffer>) {
    const part = chunk.subarray(0, length - total);
    chunks.push(part);
    total += part.length;
    if (total >= length) break;
  }
  return Buffer.concat(chunks, total);
}
