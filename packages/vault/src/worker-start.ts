import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

/**
 * Starts one of the engine's worker modules (`worker` seals and opens blobs, `walker`
 * walks local paths, `reader` reads small files) from the built bundle beside this file, or from the TypeScript
 * sources through tsx when running unbuilt (tests).
 */
export function startWorker(name: 'worker' | 'walker' | 'reader', workerData: unknown): Worker {
  const built = new URL(`./${name}.js`, import.meta.url);
  if (existsSync(built)) return new Worker(built, { workerData });
  const source = new URL(`./${name}.ts`, import.meta.url).href;
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData });
}
