import { availableParallelism } from 'node:os';
import type { Worker } from 'node:worker_threads';
import { DamagedBlobError } from './codec.js';
import { garbageCollector } from './gc.js';
import { startWorker } from './worker-start.js';
import type { PackTask, RestorePackResult, RestorePackTask, VerifySpanResult, VerifySpanTask } from './pack-tasks.js';

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
  // eslint-disable-next-line @typescript-eslint/no-explicit-any
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

/** Worker threads that seal and open blobs off the main thread. */
export class CryptoPool {
  private readonly lanes: Lane[] = [];
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private scheduled = false;
  private closed = false;

  /**
   * With macKey, workers can also verify blobs against their ids (see verify()). The
   * threads start with the first job: a backup with nothing new to seal starts none.
   */
  constructor(
    private readonly encKey: Buffer,
    private readonly threads = availableParallelism(),
    private readonly macKey?: Buffer,
  ) {}

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
    return this.submit('seal', id, data, compress);
  }

  /**
   * The blob id of `data` (needs macKey), computed off this thread; the bytes are moved
   * there and back, not copied, when they fill their own buffer.
   */
  hash(data: Uint8Array): Promise<{ id: Buffer; data: Buffer }> {
    return this.submit('hash', NO_ID, data, false);
  }

  /**
   * Verifies the blobs of a pack span in a worker (needs macKey). The span's bytes are
   * handed over, not copied, when they fill their own buffer; it must not be used afterwards.
   */
  verifySpan(task: VerifySpanTask): Promise<VerifySpanResult> {
    const span = ownBytes(task.span);
    return this.runTask({ ...task, span }, span);
  }

  /**
   * Restores one pack span in a worker (needs macKey). With `lend`, the span's whole
   * buffer is moved to the worker and comes back in the result (`span`) for reuse;
   * otherwise the span is handed over like verifySpan's.
   */
  restorePack(task: RestorePackTask, lend = false): Promise<RestorePackResult> {
    const span = lend ? task.span : ownBytes(task.span);
    return this.runTask({ ...task, span }, span);
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
      else if (r.id !== undefined) p.resolve({ id: Buffer.from(r.id.buffer, r.id.byteOffset, r.id.byteLength), data: Buffer.from(r.data!.buffer, r.data!.byteOffset, r.data!.byteLength) });
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
