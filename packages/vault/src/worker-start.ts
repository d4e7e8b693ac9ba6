import { existsSync } from 'node:fs';
import { Worker } from 'node:worker_threads';

const SMALL_YOUNG_GENERATION_MB = 2;

/**
 * Starts one of the engine's worker modules (`worker` seals and opens blobs, `walker`
 * walks local paths, `reader` reads small files) from the built bundle beside this file, or from the TypeScript
 * sources through tsx when running unbuilt (tests).
 */
export function startWorker(name: 'worker' | 'walker' | 'reader', workerData: unknown): Worker {
  const built = new URL(`./${name}.js`, import.meta.url);
  // Walking and reading allocate few JavaScript objects (file bytes live outside the
  // heap): a small young generation keeps each of those threads' heaps small.
  const resourceLimits = name === 'worker' ? {} : { maxYoungGenerationSizeMb: SMALL_YOUNG_GENERATION_MB };
  if (existsSync(built)) return new Worker(built, { workerData, resourceLimits });
  const source = new URL(`./${name}.ts`, import.meta.url).href;
  const boot = `import('tsx/esm/api').then((m) => { m.register(); return import(${JSON.stringify(source)}); });`;
  return new Worker(boot, { eval: true, workerData, resourceLimits });
}
