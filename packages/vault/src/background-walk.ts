import path from 'node:path';
import type { Worker } from 'node:worker_threads';
import { rootName, type SourceEntry, type WalkedEntry, withOpen } from './source.js';
import { startWorker } from './worker-start.js';

/** Entries as the walker thread sends them: paths, and eight numbers per entry. */
export interface EncodedEntries {
  paths: string[];
  /** kind (0 file, 1 dir, 2 symlink), mode, mtimeMs, ctimeMs, inode, uid, gid, size. */
  numbers: Float64Array;
  /** Symlink targets by position in the batch. */
  targets: Record<number, string>;
}

export type WalkMessage = { batch: EncodedEntries } | { done: true } | { error: { message: string; code?: string } };

const KINDS = ['file', 'dir', 'symlink'] as const;
const FIELDS = 8;

export function encodeEntries(entries: WalkedEntry[]): EncodedEntries {
  const numbers = new Float64Array(entries.length * FIELDS);
  const targets: Record<number, string> = {};
  entries.forEach((e, i) => {
    const at = i * FIELDS;
    numbers[at] = KINDS.indexOf(e.type);
    numbers[at + 1] = e.mode;
    numbers[at + 2] = e.mtimeMs;
    numbers[at + 3] = e.ctimeMs ?? 0;
    numbers[at + 4] = e.inode ?? 0;
    numbers[at + 5] = e.uid ?? 0;
    numbers[at + 6] = e.gid ?? 0;
    numbers[at + 7] = e.size;
    if (e.target !== undefined) targets[i] = e.target;
  });
  return { paths: entries.map((e) => e.path), numbers, targets };
}

/**
 * Entry `i` of eight numbers per entry (the layout of EncodedEntries, also the native
 * codec's directory listings), without its local file; null for a kind not backed up.
 */
export function decodeEntry(numbers: Float64Array, i: number, rel: string, targets: Record<number, string>): WalkedEntry | null {
  const at = i * FIELDS;
  const type = KINDS[numbers[at]!];
  // Sockets, fifos and devices are not backed up.
  if (!type) return null;
  const entry: WalkedEntry = {
    path: rel,
    type,
    mode: numbers[at + 1]! & 0o7777,
    mtimeMs: numbers[at + 2]!,
    ctimeMs: numbers[at + 3]!,
    inode: numbers[at + 4]!,
    uid: numbers[at + 5]!,
    gid: numbers[at + 6]!,
    size: numbers[at + 7]!,
  };
  if (type === 'symlink') entry.target = targets[i] ?? '';
  return entry;
}

function decodeEntries(encoded: EncodedEntries, roots: Map<string, string>): SourceEntry[] {
  const { paths, numbers, targets } = encoded;
  return paths.map((rel, i) => {
    const entry = decodeEntry(numbers, i, rel, targets)!;
    if (entry.type === 'file') {
      const cut = rel.indexOf('/');
      entry.file = cut < 0 ? roots.get(rel)! : roots.get(rel.slice(0, cut))! + rel.slice(cut);
    }
    return withOpen(entry);
  });
}

/**
 * Walks local paths like walkPaths, on a worker thread that starts at once: the walk
 * runs while the repository is being opened (key derivation, index) and then beside
 * the backup, which only takes the entries. Runs at most `ahead` entries ahead of the
 * consumer. Iterate it once; an iteration left early stops the thread, and `close()`
 * stops it when the walk is not iterated at all (a repository that failed to open).
 */
export class BackgroundWalk implements AsyncIterable<SourceEntry> {
  private readonly worker: Worker;
  private readonly roots = new Map<string, string>();
  private readonly batches: EncodedEntries[] = [];
  private finished = false;
  private failure: Error | null = null;
  private wake: (() => void) | null = null;

  constructor(paths: string[], ahead = 65_536) {
    for (const p of paths) {
      const abs = path.resolve(p);
      this.roots.set(rootName(abs), abs);
    }
    this.worker = startWorker('walker', { paths: paths.map((p) => path.resolve(p)) });
    // An abandoned walk must not keep the process alive.
    this.worker.unref();
    this.worker.on('message', (message: WalkMessage) => {
      if ('batch' in message) this.batches.push(message.batch);
      else if ('done' in message) this.finished = true;
      else this.failure = Object.assign(new Error(message.error.message), { code: message.error.code });
      this.notify();
    });
    this.worker.on('error', (err) => {
      this.failure ??= err;
      this.notify();
    });
    this.worker.on('exit', (code) => {
      if (!this.finished) this.failure ??= new Error(`the walker thread stopped (exit code ${code})`);
      this.notify();
    });
    this.worker.postMessage(ahead);
  }

  private notify(): void {
    this.wake?.();
    this.wake = null;
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SourceEntry> {
    try {
      for (;;) {
        const batch = this.batches.shift();
        if (batch) {
          this.worker.postMessage(batch.paths.length);
          yield* decodeEntries(batch, this.roots);
          continue;
        }
        if (this.failure) throw this.failure;
        if (this.finished) return;
        await new Promise<void>((resolve) => (this.wake = resolve));
      }
    } finally {
      await this.close();
    }
  }

  /** Stops the walker thread (done by the iteration itself when it ends). */
  async close(): Promise<void> {
    this.finished = true;
    await this.worker.terminate();
  }
}
