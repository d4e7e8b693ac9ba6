// Worker thread: seals (compress + encrypt) and opens (decrypt + decompress) blobs in
// batches, so hashing on the main thread and sealing here run on separate cores.
import { parentPort, workerData } from 'node:worker_threads';
import { blobId } from './keys.js';
import { openBlob, sealBlob } from './codec.js';
import type { PoolJob, PoolResult } from './pool.js';

const encKey = Buffer.from(workerData.encKey as Uint8Array);
const macKey = workerData.macKey ? Buffer.from(workerData.macKey as Uint8Array) : null;
const EMPTY = new Uint8Array(0);

function verify(id: Uint8Array, sealed: Uint8Array): Uint8Array {
  if (!macKey) throw new Error('no id key for verifying');
  const plain = openBlob(encKey, id, sealed);
  if (!blobId(macKey, plain).equals(id)) throw new Error('content does not match its id');
  return EMPTY;
}

parentPort!.on('message', (jobs: PoolJob[]) => {
  const results: PoolResult[] = jobs.map((job) => {
    try {
      const out =
        job.op === 'seal' ? sealBlob(encKey, job.id, job.data, job.compress)
        : job.op === 'verify' ? verify(job.id, job.data)
        : openBlob(encKey, job.id, job.data);
      return { n: job.n, data: out };
    } catch (err) {
      return { n: job.n, error: (err as Error).message };
    }
  });
  // Hand large results over instead of copying them (smaller buffers share Node's
  // allocation pool and cannot be moved). Buffers the runtime refuses to move are copied.
  const transfer = new Set<ArrayBuffer>();
  for (const r of results) {
    if (r.data && r.data.byteLength >= 4096 && r.data.buffer instanceof ArrayBuffer) transfer.add(r.data.buffer);
  }
  try {
    parentPort!.postMessage(results, [...transfer]);
  } catch {
    parentPort!.postMessage(results);
  }
});
