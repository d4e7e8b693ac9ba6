import fs from 'node:fs';
import path from 'node:path';
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
 * Answers how many files got copies.
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

/** Vite plugin: compresses the build output once it is written (see compressAssets). */
export function compressAssetsPlugin(): Plugin {
  let outDir = '';
  return {
    name: 'bogwan-compress-assets',
    apply: 'build',
    configResolved(config) {
      outDir = path.resolve(config.root, config.build.outDir);
    },
    closeBundle() {
      const count = compressAssets(outDir);
      console.log(`Compressed copies (brotli, gzip) of ${count} files in ${path.relative(process.cwd(), outDir) || '.'}`);
    },
  };
}
