// Worker thread: hashes (blob ids of large chunks) and seals (compress + encrypt) blobs in
// batches, off the main thread, which reads and cuts; verifies and restores whole packs.
import { parentPort, workerData } from 'node:worker_threads';
import { blobId } from './blob-id.js';
import { sealBlobParts } from './codec.js';
import { noteGarbage, type PackTask, restorePack, type RestorePackResult, verifySpan } from './pack-tasks.js';
import type { PoolJob, PoolResult } from './pool.js';

const encKey = Buffer.from(workerData.encKey as Uint8Array);
const macKey = workerData.macKey ? Buffer.from(workerData.macKey as Uint8Array) : null;

function runTask(n: number, task: PackTask): PoolResult {
  try {
    if (!macKey) throw new Error('no id key for verifying');
    const value = task.kind === 'verify-span' ? verifySpan(encKey, macKey, task) : restorePack(encKey, macKey, task);
    return { n, value };
  } catch (err) {
    return { n, error: (err as Error).message };
  }
}

parentPort!.on('message', (message: PoolJob[] | { n: number; task: PackTask }) => {
  if (!Array.isArray(message)) {
    const result = runTask(message.n, message.task);
    // A restore span goes back to be read into again: fresh 4 MiB buffers each time
    // cost page faults on every span.
    if (message.task.kind === 'restore-pack' && result.value && message.task.span.buffer instanceof ArrayBuffer) {
      (result.value as RestorePackResult).span = message.task.span;
      try {
        parentPort!.postMessage([result], [message.task.span.buffer]);
        return;
      } catch {
        delete (result.value as RestorePackResult).span; // not movable: the main thread allocates anew
      }
    }
    parentPort!.postMessage([result]);
    return;
  }
  const jobs = message;
  const results: PoolResult[] = jobs.map((job) => {
    try {
      if (job.op === 'hash') {
        if (!macKey) throw new Error('no id key for hashing');
        return { n: job.n, id: new Uint8Array(blobId(macKey, job.data)), data: job.data };
      }
      const parts = sealBlobParts(encKey, job.id, job.data, job.compress);
      noteGarbage(job.data.length + parts.reduce((sum, p) => sum + p.length, 0));
      return { n: job.n, parts };
    } catch (err) {
      return { n: job.n, error: (err as Error).message };
    }
  });
  // Hand large results over instead of copying them (smaller buffers share Node's
  // allocation pool and cannot be moved). Buffers the runtime refuses to move are copied.
  const transfer = new Set<ArrayBuffer>();
  for (const r of results) {
    for (const bytes of r.parts ?? (r.data ? [r.data] : [])) {
      if (bytes.byteLength >= 4096 && bytes.buffer instanceof ArrayBuffer) transfer.add(bytes.buffer);
    }
  }
  try {
    parentPort!.postMessage(results, [...transfer]);
  } catch {
    parentPort!.postMessage(results);
  }
});
