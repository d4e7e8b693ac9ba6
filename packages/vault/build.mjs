// Bundles the engine into dist/: the CLI, the library entry and the worker threads
// (sealing and opening blobs, walking, reading small files). npm packages stay external and load from node_modules.
import { build } from 'esbuild';

await build({
  entryPoints: { cli: 'src/cli.ts', index: 'src/index.ts', worker: 'src/worker.ts', walker: 'src/walker.ts', reader: 'src/reader.ts' },
  outdir: 'dist',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  packages: 'external',
  logLevel: 'warning',
});
