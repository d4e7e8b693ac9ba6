// Worker thread: walks local paths (readdir and lstat of every entry) and sends the
// entries to the backup in compact batches. A walk is mostly lstat calls, each a few
// microseconds of kernel time; here they run beside the main thread instead of on it
// (see background-walk.ts).
import { parentPort, workerData } from 'node:worker_threads';
import { encodeEntries, type WalkMessage } from './background-walk.js';
import { type WalkedEntry, walkPathSteps } from './source.js';

const BATCH = 512;
let credit = 0;
let wake: (() => void) | null = null;

parentPort!.on('message', (more: number) => {
  credit += more;
  wake?.();
  wake = null;
});

function post(message: WalkMessage): void {
  parentPort!.postMessage(message);
}

async function run(): Promise<void> {
  let batch: WalkedEntry[] = [];
  const flush = (): void => {
    if (batch.length > 0) post({ batch: encodeEntries(batch) });
    batch = [];
  };
  for (const step of walkPathSteps(workerData.paths as string[])) {
    for (const entry of step) {
      if (credit <= 0) {
        flush();
        await new Promise<void>((resolve) => (wake = resolve));
      }
      credit--;
      batch.push(entry);
      if (batch.length >= BATCH) flush();
    }
  }
  flush();
  post({ done: true });
  // Nothing more to do: the thread exits and gives its memory back.
  parentPort!.close();
}

run().catch((err: NodeJS.ErrnoException) => post({ error: { message: err.message, code: err.code } }));
