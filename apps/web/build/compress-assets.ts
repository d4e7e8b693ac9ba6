import fs from 'node:fs';
import { createRequire } from 'node:module';
import os from 'node:os';
import path from 'node:path';
import { Worker } from 'node:worker_threads';
import zlib from 'node:zlib';
import type { Plugin } from 'vite';

/** Text types worth compressing; images, fonts in woff2 and archives are compressed already. */
const COMPRESSIBLE = /\.(js|mjs|css|html|svg|json|txt|xml|wasm|map|ico)$/i;
/** Below this a compressed copy saves less than the headers it costs. */
const MIN_BYTES = 1024;

function* walk(dir: string): Generator<string> {
  for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
    const full = path.join(dir, entry.name);
    if (entry.isDirectory()) yield* walk(full);
    else if (entry.isFile()) yield full;
  }
}

/**
 * Writes `<file>.br` (brotli, best quality) and `<file>.gz` (gzip level 9) beside every
 * compressible file of a built web app, when the copy is smaller than the original. The
 * server picks one by the request's Accept-Encoding; nothing is compressed per request.
 * Answers how many files got copies. The build then rewrites the `.gz` copies with zopfli
 * (zopfliGzipCopies).
 */
export function compressAssets(dir: string): number {
  let count = 0;
  for (const file of walk(dir)) {
    if (!COMPRESSIBLE.test(file)) continue;
    const source = fs.readFileSync(file);
    if (source.length < MIN_BYTES) continue;
    const brotli = zlib.brotliCompressSync(source, {
      params: {
        [zlib.constants.BROTLI_PARAM_QUALITY]: zlib.constants.BROTLI_MAX_QUALITY,
        [zlib.constants.BROTLI_PARAM_SIZE_HINT]: source.length,
      },
    });
    const gzip = zlib.gzipSync(source, { level: 9 });
    if (brotli.length < source.length) fs.writeFileSync(`${file}.br`, brotli);
    if (gzip.length < source.length) fs.writeFileSync(`${file}.gz`, gzip);
    count += 1;
  }
  return count;
}

/**
 * A worker that answers each `{ file }` message by writing `<file>.gz` again with zopfli
 * (the same DEFLATE format, found by a much longer search: 4-5 % smaller than zlib's level 9)
 * when that comes out smaller than the copy already there. Posts `{ file, saved }` back.
 */
const ZOPFLI_WORKER = `
const fs = require('node:fs');
const { parentPort } = require('node:worker_threads');
const { gzipAsync } = require(${JSON.stringify(createRequire(import.meta.url).resolve('@gfx/zopfli'))});
parentPort.on('message', async ({ file }) => {
  try {
    const source = fs.readFileSync(file);
    const copy = await gzipAsync(source, { numiterations: 15 });
    const current = fs.existsSync(file + '.gz') ? fs.statSync(file + '.gz').size : source.length;
    const saved = current - copy.length;
    if (saved > 0) fs.writeFileSync(file + '.gz', copy);
    parentPort.postMessage({ file, saved: Math.max(saved, 0) });
  } catch (error) {
    parentPort.postMessage({ file, error: String(error) });
  }
});
`;

/**
 * Rewrites the `.gz` copies of a built web app with zopfli (see ZOPFLI_WORKER), one worker
 * per core. Every browser decodes them as before; only the build takes longer. Answers the
 * bytes saved over all files.
 */
export async function zopfliGzipCopies(dir: string): Promise<number> {
  const files = [...walk(dir)].filter((file) => fs.existsSync(`${file}.gz`)).sort((a, b) => fs.statSync(b).size - fs.statSync(a).size);
  const workerCount = Math.max(1, Math.min(files.length, os.availableParallelism()));
  let saved = 0;
  let next = 0;
  await Promise.all(
    Array.from({ length: workerCount }, async () => {
      const worker = new Worker(ZOPFLI_WORKER, { eval: true });
      const compress = (file: string) =>
        new Promise<{ saved?: number; error?: string }>((resolve, reject) => {
          const fail = (error: Error) => reject(error);
          worker.once('error', fail);
          worker.once('message', (answer: { saved?: number; error?: string }) => {
            worker.off('error', fail);
            resolve(answer);
          });
          worker.postMessage({ file });
        });
      try {
        while (next < files.length) {
          const file = files[next++] as string;
          const answer = await compress(file);
          if (answer.error) throw new Error(`zopfli: ${file}: ${answer.error}`);
          saved += answer.saved ?? 0;
        }
      } finally {
        await worker.terminate();
      }
    }),
  );
  return saved;
}

/** Vite plugin: compresses the build output once it is written (see compressAssets). */
export function compressAssetsPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'bogwan-compress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    async closeBundle() {
      const started = Date.now();
      const count = compressAssets(outDir);
      const saved = await zopfliGzipCopies(outDir);
      const seconds = ((Date.now() - started) / 1000).toFixed(1);
      console.log(
        `Compressed copies (brotli, gzip by zopfli: ${(saved / 1024).toFixed(1)} KB less than level 9) of ${count} files in ${path.relative(process.cwd(), outDir) || '.'}, ${seconds} s`,
      );
    },
  };
}
