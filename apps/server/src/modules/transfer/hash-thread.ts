import { Worker } from 'node:worker_threads';
import type { Digest, HashedChunk } from './running-hash.js';

/** Bytes read from the staged file per call inside the thread (one buffer, reused). */
const READ_SIZE = 1 << 20;

// Runs inside the thread. One SHA-256 per digest id, fed with byte ranges of staged files
// read with synchronous calls into one reused buffer: the bytes never pass through the
// event loop. Messages are handled in the order they arrive.
const THREAD_SOURCE = `
const { parentPort } = require('node:worker_threads');
const { createHash } = require('node:crypto');
const fs = require('node:fs');
const buffer = Buffer.allocUnsafeSlow(${READ_SIZE});
const running = new Map();
function add(id, file, offset, length) {
  let hash = running.get(id);
  if (!hash) running.set(id, (hash = createHash('sha256')));
  const fd = fs.openSync(file, 'r');
  let done = 0;
  try {
    while (done < length) {
      const n = fs.readSync(fd, buffer, 0, Math.min(buffer.length, length - done), offset + done);
      if (n === 0) break;
      hash.update(buffer.subarray(0, n));
      done += n;
    }
  } finally {
    fs.closeSync(fd);
  }
  return done;
}
parentPort.on('message', ({ seq, op, id, file, offset, length }) => {
  try {
    if (op === 'add') parentPort.postMessage({ seq, value: add(id, file, offset, length) });
    else if (op === 'finish') {
      const hash = running.get(id) || createHash('sha256');
      running.delete(id);
      parentPort.postMessage({ seq, value: hash.digest('hex') });
    } else running.delete(id);
  } catch (error) {
    parentPort.postMessage({ seq, error: String((error && error.message) || error) });
  }
});
`;

interface Pending {
  resolve: (value: never) => void;
  reject: (error: Error) => void;
}

/**
 * One thread that keeps the SHA-256 of uploads staged in local files, reading the chunks
 * back itself (just written, so usually from the page cache). The event loop only sends
 * a few numbers per chunk, so hashing never holds up receiving the next chunks; on two
 * cores that is the difference between hashing and not (docs/decisions.md, "Files:
 * transfer").
 *
 * The thread starts with the first digest and is restarted after a crash; digests begun
 * on a thread that is gone fail (their upload then completes through one full read).
 */
export class HashThread {
  private worker?: Worker;
  private seq = 0;
  private ids = 0;
  private readonly pending = new Map<number, Pending>();

  /** A digest of the chunks of the staged file `file`; chunk `c` lies at `offsetOf(c)`. */
  digest(file: string, offsetOf: (chunk: HashedChunk) => number): Digest {
    const worker = this.running();
    const id = ++this.ids;
    let spent = false;
    const call = <T>(message: object): Promise<T> => {
      if (spent) return Promise.reject(new Error('digest already spent'));
      if (this.worker !== worker) return Promise.reject(new Error('hash thread restarted'));
      const seq = ++this.seq;
      return new Promise<T>((resolve, reject) => {
        this.pending.set(seq, { resolve: resolve as (value: never) => void, reject });
        worker.postMessage({ seq, id, ...message });
      });
    };
    return {
      add: (chunk) => call<number>({ op: 'add', file, offset: offsetOf(chunk), length: chunk.size }),
      finish: async () => {
        const hash = await call<string>({ op: 'finish' });
        spent = true;
        return hash;
      },
      drop: () => {
        if (spent) return;
        spent = true;
        if (this.worker === worker) worker.postMessage({ op: 'drop', id });
      },
    };
  }

  /** Stops the thread; calls in flight fail. */
  async close(): Promise<void> {
    const worker = this.worker;
    this.worker = undefined;
    if (worker) await worker.terminate();
    this.failPending(new Error('hash thread closed'));
  }

  private running(): Worker {
    if (this.worker) return this.worker;
    const worker = new Worker(THREAD_SOURCE, { eval: true, resourceLimits: { maxYoungGenerationSizeMb: 2 } });
    // An idle thread does not keep the process alive; a request waiting for it does.
    worker.unref();
    worker.on('message', ({ seq, value, error }: { seq: number; value?: never; error?: string }) => {
      const waiting = this.pending.get(seq);
      if (!waiting) return;
      this.pending.delete(seq);
      if (error === undefined) waiting.resolve(value as never);
      else waiting.reject(new Error(error));
    });
    const gone = (error: Error) => {
      if (this.worker !== worker) return;
      this.worker = undefined;
      this.failPending(error);
    };
    worker.on('error', gone);
    worker.on('exit', (code) => gone(new Error(`hash thread exited with code ${code}`)));
    this.worker = worker;
    return worker;
  }

  private failPending(error: Error): void {
    const waiting = [...this.pending.values()];
    this.pending.clear();
    for (const { reject } of waiting) reject(error);
  }
}
