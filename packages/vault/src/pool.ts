import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { DamagedBlobError } from './codec.js';
import { garbageCollector } from './gc.js';
import { NATIVE_TARGET, type NativeCodec, nativeCodec } from './native.js';
import { startWorker } from './worker-start.js';
import type { PackTask, RestorePackResult, RestorePackTask, RestoreTargetOutcome, VerifySpanResult, VerifySpanTask } from './pack-tasks.js';

/** A unit of work sent to a worker. */
export interface PoolJob {
  n: number;
  /** seal: compress (when it saves) and encrypt under `id`; hash: the blob id of `data`, which comes back with it. */
  op: 'seal' | 'hash';
  id: Uint8Array;
  data: Uint8Array;
  compress: boolean;
}

/** A worker's answer to one job. */
export interface PoolResult {
  n: number;
  data?: Uint8Array;
  /** A seal job's sealed blob, in pieces (sealBlobParts). */
  parts?: Uint8Array[];
  /** A hash job's blob id. */
  id?: Uint8Array;
  /** A pack task's result. */
  value?: unknown;
  error?: string;
}

interface Pending {
  resolve: (b: any) => void;
  reject: (e: Error) => void;
  bytes: number;
}

interface Lane {
  worker: Worker;
  batch: PoolJob[];
  batchBytes: number;
  inFlight: number;
}

// A message round trip costs tens of microseconds; batching small blobs (many small
// files) amortises it, while 1 MiB batches keep both cores busy on big files.
const BATCH_BYTES = 1024 * 1024;
const BATCH_JOBS = 256;
const NO_ID = new Uint8Array(0);

/** restorePack through the native codec: the same outcomes and messages as on a thread. */
async function restoreNatively(native: NativeCodec, encKey: Buffer, macKey: Buffer, task: RestorePackTask): Promise<RestorePackResult> {
  const { blobs } = task;
  const targets = blobs.flatMap((b) => b.targets);
  const specs = new Float64Array(targets.length * 5);
  // The second number: 1 a new one-chunk file, 2 a part of a file this restore created (zeros stay holes), 0 a part of one that existed.
  targets.forEach((t, i) => specs.set([t.offset, t.whole ? 1 : t.holes ? 2 : 0, t.whole?.mode ?? 0, t.whole?.mtimeMs ?? 0, t.whole?.size ?? 0], i * 5));
  const done = await native.restoreSpan(
    encKey,
    macKey,
    task.span,
    Buffer.concat(blobs.map((b) => b.id)),
    Uint32Array.from(blobs.flatMap((b) => [b.from, b.length])),
    Uint32Array.from(blobs.map((b) => b.targets.length)),
    targets.map((t) => t.path),
    specs,
  );
  const pack = task.hex.slice(0, 12);
  const outcomes: RestoreTargetOutcome[][] = [];
  let at = 0;
  for (let b = 0; b < blobs.length; b++) {
    const count = blobs[b]!.targets.length;
    const reason = done.reasons[b];
    const damage = reason === 'blob lies outside its span' ? `pack ${pack} is truncated` : `damaged blob in pack ${pack}: ${reason}`;
    const row: RestoreTargetOutcome[] = [];
    for (let k = at; k < at + count; k++) {
      const [status, written, size, mtimeMs] = done.targets.subarray(k * 4, k * 4 + 4) as unknown as [number, number, number, number];
      if (status === NATIVE_TARGET.notReached) break;
      if (status === NATIVE_TARGET.damaged) row.push({ damage });
      else row.push(targets[k]!.whole ? { written, size, mtimeMs } : { written });
    }
    if (row.length < count) break; // the write that failed stopped the span here
    outcomes.push(row);
    at += count;
  }
  const fatal = done.fatal && { path: targets[done.fatal.target]!.path, code: done.fatal.code, message: done.fatal.message };
  // The span's buffer stays the caller's: it comes back to be read into again.
  return { outcomes, span: task.span, ...(fatal ? { fatal } : {}) };
}

/** How many bytes callers keep in flight on the pool. */
export interface PoolBounds {
  /** Blobs handed over for sealing and not yet in a pack (writer.ts). */
  sealing: number;
  /** One file's chunks being hashed (chunk-ids.ts). */
  hashing: number;
}

// On worker threads each byte exists up to four times in flight (the caller's, the
// worker's copy, its sealed form, the copy sent back), and batches must queue to keep two
// workers busy: 16 MiB is eight 1 MiB batches per worker. The native codec works on the
// caller's bytes and runs four jobs at once, so 4 MiB keeps it as busy (measured: peak
// 171–181 → 160–164 MiB on a first backup, same time).
const WORKER_BOUNDS: PoolBounds = { sealing: 16 * 1024 * 1024, hashing: 8 * 1024 * 1024 };
const NATIVE_BOUNDS: PoolBounds = { sealing: 4 * 1024 * 1024, hashing: 4 * 1024 * 1024 };

function startCryptoWorker(encKey: Buffer, macKey: Buffer | undefined): Worker {
  // Workers started after this get a gc() they call every few MiB (gc.ts).
  garbageCollector();
  return startWorker('worker', { encKey: Uint8Array.from(encKey), macKey: macKey ? Uint8Array.from(macKey) : undefined });
}

/** The bytes in a buffer of their own, so they can be handed to a worker without a copy. */
function ownBytes(bytes: Uint8Array): Uint8Array {
  const whole = bytes.byteOffset === 0 && bytes.byteLength === bytes.buffer.byteLength && bytes.buffer instanceof ArrayBuffer;
  return whole ? bytes : new Uint8Array(bytes);
}

/**
 * Seals and opens blobs off the main thread: on libuv's thread pool through the native
 * codec where it is built (sealing, hashing, verifying, restoring), on worker threads
 * otherwise.
 */
export class CryptoPool {
  private readonly lanes: Lane[] = [];
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private scheduled = false;
  private closed = false;
  /** What callers keep in flight here, enough to keep it busy and no more. */
  readonly bounds: PoolBounds;

  /**
   * With macKey, workers can also verify blobs against their ids (see verify()). The
   * threads start with the first job: a backup with nothing new to seal starts none.
   */
  constructor(
    private readonly encKey: Buffer,
    private readonly threads = availableParallelism(),
    private readonly macKey?: Buffer,
    /** The native codec to seal, hash, verify and restore with, or null for worker threads. */
    private readonly native: NativeCodec | null = nativeCodec(),
  ) {
    this.bounds = native ? NATIVE_BOUNDS : WORKER_BOUNDS;
  }

  private start(): void {
    for (let i = 0; i < Math.max(1, this.threads); i++) {
      const worker = startCryptoWorker(this.encKey, this.macKey);
      const lane: Lane = { worker, batch: [], batchBytes: 0, inFlight: 0 };
      worker.on('message', (results: PoolResult[]) => this.receive(lane, results));
      worker.on('error', (err) => this.failAll(err));
      this.lanes.push(lane);
    }
  }

  /**
   * Compresses (when it saves) and encrypts a blob; answers it in pieces (sealBlobParts).
   * `data` is handed over to the worker (its buffer is detached afterwards) when it fills
   * its own buffer; do not reuse it.
   */
  seal(id: Uint8Array, data: Uint8Array, compress = true): Promise<Buffer[]> {
    if (this.native) return this.guard(() => this.native!.seal(this.encKey, id, data, compress).then((sealed) => [sealed]));
    return this.submit('seal', id, data, compress);
  }

  /**
   * The blob id of `data` (needs macKey), computed off this thread; the bytes are moved
   * there and back, not copied, when they fill their own buffer.
   */
  hash(data: Uint8Array): Promise<{ id: Buffer; data: Buffer }> {
    if (this.native && this.macKey) {
      const bytes = Buffer.from(data.buffer, data.byteOffset, data.byteLength);
      return this.guard(() => this.native!.hash(this.macKey!, bytes).then((id) => ({ id, data: bytes })));
    }
    return this.submit('hash', NO_ID, data, false);
  }

  /**
   * Verifies the blobs of a pack span in a worker (needs macKey). The span's bytes are
   * handed over, not copied, when they fill their own buffer; it must not be used afterwards.
   */
  verifySpan(task: VerifySpanTask): Promise<VerifySpanResult> {
    if (this.native && this.macKey) {
      const ids = Buffer.concat(task.blobs.map((b) => b.id));
      const layout = Uint32Array.from(task.blobs.flatMap((b) => [b.from, b.length]));
      return this.guard(() =>
        this.native!.verifySpan(this.encKey, this.macKey!, task.span, ids, layout).then((failed) =>
          failed.map(([i, reason]): [string, string] => [Buffer.from(task.blobs[i]!.id).toString('hex'), reason]),
        ),
      );
    }
    const span = ownBytes(task.span);
    return this.runTask({ ...task, span }, span);
  }

  /**
   * Restores one pack span in a worker (needs macKey). With `lend`, the span's whole
   * buffer is moved to the worker and comes back in the result (`span`) for reuse;
   * otherwise the span is handed over like verifySpan's.
   */
  restorePack(task: RestorePackTask, lend = false): Promise<RestorePackResult> {
    if (this.native && this.macKey) return this.guard(() => restoreNatively(this.native!, this.encKey, this.macKey!, task));
    const span = lend ? task.span : ownBytes(task.span);
    return this.runTask({ ...task, span }, span);
  }

  /** Runs native work unless the pool is closed. */
  private guard<T>(work: () => Promise<T>): Promise<T> {
    if (this.closed) return Promise.reject(new Error('crypto pool closed'));
    return work();
  }

  private runTask<T>(task: PackTask, bytes: Uint8Array): Promise<T> {
    if (this.closed) return Promise.reject(new Error('crypto pool closed'));
    if (this.lanes.length === 0) this.start();
    const n = this.next++;
    const lane = this.lanes.reduce((a, b) => (b.inFlight < a.inFlight ? b : a));
    const transfer = [bytes.buffer as ArrayBuffer];
    const size = bytes.byteLength;
    const promise = new Promise<T>((resolve, reject) => this.pending.set(n, { resolve, reject, bytes: size }));
    lane.inFlight += size;
    try {
      lane.worker.postMessage({ n, task }, transfer);
    } catch {
      lane.worker.postMessage({ n, task }); // a buffer the runtime will not move is copied
    }
    return promise;
  }

  private submit<T>(op: PoolJob['op'], id: Uint8Array, data: Uint8Array, compress: boolean): Promise<T> {
    if (this.closed) return Promise.reject(new Error('crypto pool closed'));
    if (this.lanes.length === 0) this.start();
    // postMessage copies a view's whole underlying ArrayBuffer (a whole read buffer for
    // a chunk, an 8 KiB pool slab for a small id); copy just the bytes. The data is then
    // moved, not copied, to the worker.
    data = ownBytes(data);
    if (id.byteLength !== id.buffer.byteLength) id = new Uint8Array(id);
    const n = this.next++;
    const lane = this.lanes.reduce((a, b) => (b.inFlight + b.batchBytes < a.inFlight + a.batchBytes ? b : a));
    lane.batch.push({ n, op, id, data, compress });
    lane.batchBytes += data.length;
    const promise = new Promise<T>((resolve, reject) => this.pending.set(n, { resolve, reject, bytes: data.length }));
    if (lane.batchBytes >= BATCH_BYTES || lane.batch.length >= BATCH_JOBS) this.send(lane);
    else if (!this.scheduled) {
      this.scheduled = true;
      setImmediate(() => {
        this.scheduled = false;
        for (const l of this.lanes) this.send(l);
      });
    }
    return promise;
  }

  private send(lane: Lane): void {
    if (lane.batch.length === 0) return;
    const transfer = lane.batch.map((job) => job.data.buffer as ArrayBuffer);
    try {
      lane.worker.postMessage(lane.batch, transfer);
    } catch {
      lane.worker.postMessage(lane.batch); // a buffer the runtime will not move is copied
    }
    lane.inFlight += lane.batchBytes;
    lane.batch = [];
    lane.batchBytes = 0;
  }

  private receive(lane: Lane, results: PoolResult[]): void {
    for (const r of results) {
      const p = this.pending.get(r.n);
      if (!p) continue;
      this.pending.delete(r.n);
      lane.inFlight -= p.bytes;
      if (r.error !== undefined) p.reject(new DamagedBlobError(r.error));
      else if (r.value !== undefined) p.resolve(r.value);
      else if (r.parts !== undefined) p.resolve(r.parts.map((b) => Buffer.from(b.buffer, b.byteOffset, b.byteLength)));
      else if (r.id !== undefined)
        p.resolve({
          id: Buffer.from(r.id.buffer, r.id.byteOffset, r.id.byteLength),
          data: Buffer.from(r.data!.buffer, r.data!.byteOffset, r.data!.byteLength),
        });
      else p.resolve(Buffer.from(r.data!.buffer, r.data!.byteOffset, r.data!.byteLength));
    }
  }

  private failAll(err: Error): void {
    for (const p of this.pending.values()) p.reject(err);
    this.pending.clear();
  }

  /** Stops the workers; pending jobs fail. */
  async close(): Promise<void> {
    this.closed = true;
    this.failAll(new Error('crypto pool closed'));
    await Promise.all(this.lanes.map((l) => l.worker.terminate()));
  }
}
