// Bundles the server and its command-line tools (and the workspace packages they import)
// into dist/; npm dependencies stay external and load from node_modules.
import { build } from 'esbuild';

await build({
  // One bundle per entry: dist/<name>.js.
  entryPoints: {
    main: 'src/main.ts',
    'licence-vendor': 'src/cli/licence-vendor.ts',
    admin: 'src/cli/admin.ts',
  },
  outdir: 'dist',
  // Modules loaded with import() (the S3 driver) become chunks of their own, so their npm
  // dependencies load when first used, not at start. Chunks are named by their content and
  // old ones are not deleted: a server still running from an earlier build loads its own.
  splitting: true,
  chunkNames: 'chunks/[name]-[hash]',
  bundle: true,
  platform: 'node',
  format: 'esm',
  target: 'node20.19',
  sourcemap: true,
  logLevel: 'warning',
  plugins: [
    {
      name: 'external-npm-packages',
      setup(b) {
        // The backup engine stays external too: it starts worker threads from its own dist/.
        b.onResolve({ filter: /^[^./]/ }, (args) =>
          args.path.startsWith('@bogwan/') && args.path !== '@bogwan/vault' ? undefined : { path: args.path, external: true },
        );
      },
    },
  ],
  banner: { js: "import { createRequire as __createRequire } from 'node:module'; const require = __createRequire(import.meta.url);" },
});
console.log('server built: apps/server/dist/main.js, dist/admin.js, dist/licence-vendor.js');
