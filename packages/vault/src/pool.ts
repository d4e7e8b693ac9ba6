import { existsSync } from 'node:fs';
import { availableParallelism } from 'node:os';
import { Worker } from 'node:worker_threads';
import { DamagedBlobError } from './codec.js';

/** A unit of work sent to a worker. */
export interface PoolJob {
  n: number;
  op: 'seal' | 'open' | 'verify';
  id: Uint8Array;
  data: Uint8Array;
  compress: boolean;
}

/** A worker's answer to one job. */
export interface PoolResult {
  n: number;
  data?: Uint8Array;
  error?: string;
}

interface Pending {
  resolve: (b: Buffer) => void;
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

function startWorker(encKey: Buffer, macKey: Buffer | undefined): Worker {
  const workerData = { encKey: Uint8Array.from(encKey), macKey: macKey ? Uint8Array.from(macKey) : undefined };
  const built = new URL('./worker.js', import.meta.url);
  if (existsSync(built)) return new Worker(built, { workerData });
  // Running from the TypeScript sources (tests): let tsx load the worker.
  const source = new URL('./worker.ts', import.meta.url).href;
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData });
}

/** Worker threads that seal and open blobs off the main thread. */
export class CryptoPool {
  private readonly lanes: Lane[] = [];
  private readonly pending = new Map<number, Pending>();
  private next = 0;
  private scheduled = false;
  private closed = false;

  /** With macKey, workers can also verify blobs against their ids (see verify()). */
  constructor(encKey: Buffer, threads = availableParallelism(), macKey?: Buffer) {
    for (let i = 0; i < Math.max(1, threads); i++) {
      const worker = startWorker(encKey, macKey);
      const lane: Lane = { worker, batch: [], batchBytes: 0, inFlight: 0 };
      worker.on('message', (results: PoolResult[]) => this.receive(lane, results));
      worker.on('error', (err) => this.failAll(err));
      this.lanes.push(lane);
    }
  }

  /** Compresses (when it saves) and encrypts a blob. */
  seal(id: Uint8Array, data: Uint8Array, compress = true): Promise<Buffer> {
    return this.submit('seal', id, data, compress);
  }

  /** Decrypts, authenticates and decompresses a blob. */
  open(id: Uint8Array, data: Uint8Array): Promise<Buffer> {
    return this.submit('open', id, data, false);
  }

  /**
   * Decrypts, authenticates, decompresses and re-hashes a blob in the worker; resolves
   * empty (nothing is sent back) or rejects with DamagedBlobError. Needs macKey.
   */
  verify(id: Uint8Array, data: Uint8Array): Promise<Buffer> {
    return this.submit('verify', id, data, false);
  }

  private submit(op: PoolJob['op'], id: Uint8Array, data: Uint8Array, compress: boolean): Promise<Buffer> {
    if (this.closed) return Promise.reject(new Error('crypto pool closed'));
    // postMessage copies a view's whole underlying ArrayBuffer (a 16 MiB pack for each
    // blob read from it, an 8 KiB pool slab for a small id); copy just the bytes.
    if (data.byteLength !== data.buffer.byteLength) data = new Uint8Array(data);
    if (id.byteLength !== id.buffer.byteLength) id = new Uint8Array(id);
    const n = this.next++;
    const lane = this.lanes.reduce((a, b) => (b.inFlight + b.batchBytes < a.inFlight + a.batchBytes ? b : a));
    lane.batch.push({ n, op, id, data, compress });
    lane.batchBytes += data.length;
    const promise = new Promise<Buffer>((resolve, reject) => this.pending.set(n, { resolve, reject, bytes: data.length }));
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
    lane.worker.postMessage(lane.batch);
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
