import { CHUNK_SIZE, type UploadConflictAction } from '@bogwan/contracts';
import { isRetryable, UploadError, type UploadDescriptor, type UploadPersistence, type UploadSource, type UploadTask, type UploadTransport } from './types';

/** Chunks on the wire at once, over every file of the queue. */
export const MAX_CHUNKS_IN_FLIGHT = 4;
/** Tries of one chunk (or status call) before the file is marked failed. */
export const MAX_ATTEMPTS = 5;
/** Window over which the speed is measured. */
const SPEED_WINDOW_MS = 3000;

export interface UploadQueueOptions {
  transport: UploadTransport;
  persistence?: UploadPersistence;
  chunkSize?: number;
  maxInFlight?: number;
  maxAttempts?: number;
  /** Delay before try number `attempt` (1-based) of a retryable failure. */
  backoffMs?: (attempt: number) => number;
  /** Waits `ms`; tests pass a fake. Resolves early (and quietly) when `signal` aborts. */
  sleep?: (ms: number, signal: AbortSignal) => Promise<void>;
  now?: () => number;
  newId?: () => string;
  /** Called once per file when its last chunk is accepted. */
  onComplete?: (task: UploadTask) => void;
}

export interface NewUpload {
  source: UploadSource;
  /** Folder the file goes to. */
  path: string;
  /** Name there; the source's name by default. */
  name?: string;
  /** What the server does when the name is taken there. */
  onConflict?: UploadConflictAction;
}

interface Entry {
  task: UploadTask;
  source?: UploadSource;
  /** Set once the server said which chunks it holds. */
  synced: boolean;
  syncing: boolean;
  pending: number[];
  received: Set<number>;
  inFlight: Map<number, { controller: AbortController; sent: number }>;
  /** Chunks waiting out a backoff before they go back to `pending`. */
  waiting: number;
  attempts: Map<number, number>;
  /** Bumped by pause, cancel and retry so late answers of earlier work are ignored. */
  generation: number;
  controller: AbortController;
  samples: Array<{ at: number; bytes: number }>;
}

function defaultSleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve) => {
    if (signal.aborted) return resolve();
    const timer = setTimeout(resolve, ms);
    signal.addEventListener('abort', () => {
      clearTimeout(timer);
      resolve();
    });
  });
}

let idCounter = 0;
function defaultId(): string {
  idCounter += 1;
  const random = typeof crypto !== 'undefined' && 'randomUUID' in crypto ? crypto.randomUUID() : String(Math.random()).slice(2);
  return `${Date.now().toString(36)}-${idCounter}-${random}`;
}

/**
 * The upload queue: splits files into chunks, keeps at most `maxInFlight` chunks on the
 * wire over all files, retries retryable failures with backoff, and resumes a file from
 * the chunks the server already holds. Knows nothing of React; the interface subscribes.
 */
export class UploadQueue {
  private readonly entries = new Map<string, Entry>();
  private readonly listeners = new Set<() => void>();
  private snapshot: UploadTask[] = [];
  private readonly chunkSize: number;
  private readonly maxInFlight: number;
  private readonly maxAttempts: number;
  private readonly backoffMs: (attempt: number) => number;
  private readonly sleep: (ms: number, signal: AbortSignal) => Promise<void>;
  private readonly now: () => number;
  private readonly newId: () => string;

  constructor(private readonly options: UploadQueueOptions) {
    this.chunkSize = options.chunkSize ?? CHUNK_SIZE;
    this.maxInFlight = options.maxInFlight ?? MAX_CHUNKS_IN_FLIGHT;
    this.maxAttempts = options.maxAttempts ?? MAX_ATTEMPTS;
    this.backoffMs = options.backoffMs ?? ((attempt) => Math.min(30_000, 1000 * 2 ** (attempt - 1)));
    this.sleep = options.sleep ?? defaultSleep;
    this.now = options.now ?? Date.now;
    this.newId = options.newId ?? defaultId;
  }

  /** Current tasks, oldest first; a new array after every change. */
  getSnapshot = (): UploadTask[] => this.snapshot;

  subscribe = (listener: () => void): (() => void) => {
    this.listeners.add(listener);
    return () => this.listeners.delete(listener);
  };

  /** Chunks on the wire right now. */
  inFlightCount(): number {
    let count = 0;
    for (const entry of this.entries.values()) count += entry.inFlight.size;
    return count;
  }

  /** Queues files; answers their task ids. */
  add(uploads: NewUpload[]): string[] {
    const ids = uploads.map(({ source, path, name, onConflict }) => {
      const descriptor: UploadDescriptor = {
        id: this.newId(),
        path,
        name: name ?? source.name,
        size: source.size,
        lastModified: source.lastModified,
        createdAt: this.now(),
        ...(onConflict ? { onConflict } : {}),
      };
      this.entries.set(descriptor.id, this.makeEntry(descriptor, source));
      void this.options.persistence?.save(descriptor, source).catch(() => undefined);
      return descriptor.id;
    });
    this.changed();
    return ids;
  }

  /** Brings back the uploads kept before a reload; those with their bytes resume at once. */
  async restore(): Promise<void> {
    const kept = await this.options.persistence?.load().catch(() => []);
    for (const { descriptor, source } of kept ?? []) {
      if (this.entries.has(descriptor.id)) continue;
      const entry = this.makeEntry(descriptor, source);
      if (!source) {
        entry.task.status = 'paused';
        entry.task.needsFile = true;
      }
      this.entries.set(descriptor.id, entry);
    }
    this.changed();
  }

  /** Gives a restored task its file again (picked anew by the user); it must be the same size. */
  provideFile(id: string, source: UploadSource): boolean {
    const entry = this.entries.get(id);
    if (!entry || !entry.task.needsFile || source.size !== entry.task.size) return false;
    entry.source = source;
    entry.task.needsFile = false;
    entry.task.status = 'queued';
    void this.options.persistence?.save(this.descriptorOf(entry.task), source).catch(() => undefined);
    this.changed();
    return true;
  }

  pause(id: string): void {
    const entry = this.entries.get(id);
    if (!entry || (entry.task.status !== 'queued' && entry.task.status !== 'uploading')) return;
    this.stopWork(entry);
    entry.task.status = 'paused';
    this.changed();
  }

  resume(id: string): void {
    const entry = this.entries.get(id);
    if (!entry || entry.task.status !== 'paused' || !entry.source) return;
    entry.task.status = 'queued';
    entry.synced = false;
    this.changed();
  }

  cancel(id: string): void {
    const entry = this.entries.get(id);
    if (!entry || entry.task.status === 'done' || entry.task.status === 'canceled') return;
    this.stopWork(entry);
    entry.task.status = 'canceled';
    entry.task.speed = 0;
    // The server's task of this upload shows canceled too (best effort: it is only a label there).
    const { path, name, size } = entry.task;
    void this.options.transport.cancel?.({ path, fileName: name, fileSize: size, uploadId: entry.task.id }).catch(() => undefined);
    void this.options.persistence?.remove(id).catch(() => undefined);
    this.changed();
  }

  /** Tries a failed or canceled file again, from what the server holds. */
  retry(id: string): void {
    const entry = this.entries.get(id);
    if (!entry || (entry.task.status !== 'failed' && entry.task.status !== 'canceled') || !entry.source) return;
    this.stopWork(entry);
    entry.attempts.clear();
    entry.synced = false;
    entry.task.status = 'queued';
    entry.task.error = undefined;
    entry.task.retryable = undefined;
    void this.options.persistence?.save(this.descriptorOf(entry.task), entry.source).catch(() => undefined);
    this.changed();
  }

  /** Drops a finished, failed or canceled file from the list. */
  remove(id: string): void {
    const entry = this.entries.get(id);
    if (!entry) return;
    if (entry.task.status === 'queued' || entry.task.status === 'uploading') this.stopWork(entry);
    this.entries.delete(id);
    void this.options.persistence?.remove(id).catch(() => undefined);
    this.changed();
  }

  /** Drops every file that is done, failed or canceled. */
  clearFinished(): void {
    for (const [id, entry] of this.entries) {
      const { status } = entry.task;
      if (status === 'done' || status === 'canceled' || status === 'failed') {
        this.entries.delete(id);
        if (status === 'failed') void this.options.persistence?.remove(id).catch(() => undefined);
      }
    }
    this.changed();
  }

  private makeEntry(descriptor: UploadDescriptor, source: UploadSource | undefined): Entry {
    const totalChunks = Math.max(1, Math.ceil(descriptor.size / this.chunkSize));
    return {
      task: { ...descriptor, status: 'queued', totalChunks, uploadedBytes: 0, progress: 0, speed: 0 },
      source,
      synced: false,
      syncing: false,
      pending: [],
      received: new Set(),
      inFlight: new Map(),
      waiting: 0,
      attempts: new Map(),
      generation: 0,
      controller: new AbortController(),
      samples: [],
    };
  }

  private descriptorOf(task: UploadTask): UploadDescriptor {
    const { id, path, name, size, lastModified, createdAt, onConflict } = task;
    return { id, path, name, size, lastModified, createdAt, ...(onConflict ? { onConflict } : {}) };
  }

  /** Aborts everything running for a file; chunks on the wire go back to pending. */
  private stopWork(entry: Entry): void {
    entry.generation += 1;
    entry.controller.abort();
    entry.controller = new AbortController();
    for (const index of entry.inFlight.keys()) entry.pending.unshift(index);
    entry.inFlight.clear();
    entry.waiting = 0;
    entry.syncing = false;
    entry.task.speed = 0;
    entry.samples = [];
    this.updateBytes(entry);
  }

  private chunkBytes(entry: Entry, index: number): number {
    const start = index * this.chunkSize;
    return Math.max(0, Math.min(this.chunkSize, entry.task.size - start));
  }

  private updateBytes(entry: Entry): void {
    let bytes = 0;
    for (const index of entry.received) bytes += this.chunkBytes(entry, index);
    for (const { sent } of entry.inFlight.values()) bytes += sent;
    entry.task.uploadedBytes = Math.min(bytes, entry.task.size);
    entry.task.progress = entry.task.status === 'done' ? 100 : entry.task.size === 0 ? 0 : Math.floor((entry.task.uploadedBytes / entry.task.size) * 100);
    const at = this.now();
    entry.samples.push({ at, bytes: entry.task.uploadedBytes });
    while (entry.samples.length > 2 && at - (entry.samples[0] as { at: number }).at > SPEED_WINDOW_MS) entry.samples.shift();
    const first = entry.samples[0] as { at: number; bytes: number };
    const elapsed = at - first.at;
    entry.task.speed = elapsed > 0 ? Math.max(0, ((entry.task.uploadedBytes - first.bytes) * 1000) / elapsed) : entry.task.speed;
  }

  private changed(): void {
    this.pump();
    this.emit();
  }

  private emit(): void {
    this.snapshot = [...this.entries.values()].map((entry) => ({ ...entry.task }));
    for (const listener of this.listeners) listener();
  }

  /** Starts status calls and chunks until the in-flight cap is reached. */
  private pump(): void {
    for (const entry of this.entries.values()) {
      const { status } = entry.task;
      if ((status === 'queued' || status === 'uploading') && !entry.synced && !entry.syncing && entry.source) {
        void this.sync(entry);
      }
    }
    let free = this.maxInFlight - this.inFlightCount();
    while (free > 0) {
      const next = this.nextChunk();
      if (!next) break;
      void this.sendChunk(next.entry, next.index);
      free -= 1;
    }
  }

  /** The next chunk to send: files in queue order; a file's last chunk only once all others are in. */
  private nextChunk(): { entry: Entry; index: number } | null {
    for (const entry of this.entries.values()) {
      const { status, totalChunks } = entry.task;
      if ((status !== 'queued' && status !== 'uploading') || !entry.synced || entry.pending.length === 0) continue;
      const last = totalChunks - 1;
      const position = entry.pending.findIndex((index) => index !== last);
      if (position >= 0) {
        const [index] = entry.pending.splice(position, 1);
        return { entry, index: index as number };
      }
      // Only the last chunk is left: it completes the file, so it goes alone and last.
      if (entry.inFlight.size === 0 && entry.waiting === 0 && entry.received.size === totalChunks - 1) {
        entry.pending.shift();
        return { entry, index: last };
      }
    }
    return null;
  }

  private async sync(entry: Entry): Promise<void> {
    const generation = entry.generation;
    entry.syncing = true;
    const { path, name, size, totalChunks } = entry.task;
    let attempt = 0;
    for (;;) {
      attempt += 1;
      try {
        const received = await this.options.transport.status({ path, fileName: name, fileSize: size, uploadId: entry.task.id }, entry.controller.signal);
        if (generation !== entry.generation) return;
        entry.received = new Set(received.filter((index) => Number.isInteger(index) && index >= 0 && index < totalChunks));
        entry.pending = [];
        for (let index = 0; index < totalChunks; index += 1) if (!entry.received.has(index)) entry.pending.push(index);
        entry.synced = true;
        entry.syncing = false;
        entry.samples = [];
        this.updateBytes(entry);
        this.changed();
        return;
      } catch (error) {
        if (generation !== entry.generation) return;
        if (isRetryable(error) && attempt < this.maxAttempts) {
          await this.sleep(this.backoffMs(attempt), entry.controller.signal);
          if (generation !== entry.generation) return;
          continue;
        }
        entry.syncing = false;
        this.fail(entry, error);
        return;
      }
    }
  }

  private async sendChunk(entry: Entry, index: number): Promise<void> {
    const generation = entry.generation;
    const source = entry.source as UploadSource;
    const { path, name, size, totalChunks } = entry.task;
    const start = index * this.chunkSize;
    const record = { controller: new AbortController(), sent: 0 };
    const abortWithFile = () => record.controller.abort();
    entry.controller.signal.addEventListener('abort', abortWithFile);
    entry.inFlight.set(index, record);
    entry.task.status = 'uploading';
    this.emit();
    try {
      const answer = await this.options.transport.sendChunk(
        {
          path,
          fileName: name,
          chunkIndex: index,
          totalChunks,
          isLastChunk: index === totalChunks - 1,
          fileSize: size,
          data: source.slice(start, Math.min(size, start + this.chunkSize)),
          uploadId: entry.task.id,
          onConflict: entry.task.onConflict,
        },
        (sent) => {
          if (generation !== entry.generation) return;
          record.sent = sent;
          this.updateBytes(entry);
          this.emit();
        },
        record.controller.signal,
      );
      if (generation !== entry.generation) return;
      entry.inFlight.delete(index);
      entry.received.add(index);
      if (index === totalChunks - 1) {
        if (answer.complete || entry.received.size === totalChunks) this.finish(entry);
        else this.fail(entry, new UploadError(0, 'upload_incomplete'));
        return;
      }
      this.updateBytes(entry);
      this.changed();
    } catch (error) {
      if (generation !== entry.generation) return;
      entry.inFlight.delete(index);
      const attempts = (entry.attempts.get(index) ?? 0) + 1;
      entry.attempts.set(index, attempts);
      if (isRetryable(error) && attempts < this.maxAttempts) {
        entry.waiting += 1;
        this.updateBytes(entry);
        this.changed();
        await this.sleep(this.backoffMs(attempts), entry.controller.signal);
        if (generation !== entry.generation) return;
        entry.waiting -= 1;
        entry.pending.unshift(index);
        this.changed();
        return;
      }
      this.fail(entry, error);
    } finally {
      entry.controller.signal.removeEventListener('abort', abortWithFile);
    }
  }

  private finish(entry: Entry): void {
    entry.generation += 1;
    entry.task.status = 'done';
    entry.task.speed = 0;
    entry.task.uploadedBytes = entry.task.size;
    entry.task.progress = 100;
    void this.options.persistence?.remove(entry.task.id).catch(() => undefined);
    this.options.onComplete?.({ ...entry.task });
    this.changed();
  }

  private fail(entry: Entry, error: unknown): void {
    this.stopWork(entry);
    entry.task.status = 'failed';
    entry.task.error = error instanceof UploadError ? error.messageKey : 'request_error_message';
    entry.task.retryable = isRetryable(error);
    // A refusal (no permission, over quota) will not pass after a reload either.
    if (!entry.task.retryable) void this.options.persistence?.remove(entry.task.id).catch(() => undefined);
    this.changed();
  }
}
