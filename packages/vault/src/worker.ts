// Worker thread: seals (compress + encrypt) and opens (decrypt + decompress) blobs in
// batches, so hashing on the main thread and sealing here run on separate cores.
import { parentPort, workerData } from 'node:worker_threads';
import { openBlob, sealBlob } from './codec.js';
import type { PoolJob, PoolResult } from './pool.js';

const encKey = Buffer.from(workerData.encKey as Uint8Array);

parentPort!.on('message', (jobs: PoolJob[]) => {
  const results: PoolResult[] = jobs.map((job) => {
    try {
      const out =
        job.op === 'seal' ? sealBlob(encKey, job.id, job.data, job.compress) : openBlob(encKey, job.id, job.data);
      return { n: job.n, data: out };
    } catch (err) {
      return { n: job.n, error: (err as Error).message };
    }
  });
  parentPort!.postMessage(results);
});
