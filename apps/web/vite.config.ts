import path from 'node:path';
import react from '@vitejs/plugin-react';
import { defineConfig } from 'vite';
import { catalogueParts } from './build/catalogue-parts-plugin.ts';
import { compressAssetsPlugin } from './build/compress-assets.ts';
import { inertSchemasPlugin } from './build/inert-schemas-plugin.ts';
import { initialSizePlugin } from './build/initial-size-plugin.ts';
import { inlineIconsPlugin } from './build/inline-icons-plugin.ts';

const API_TARGET = 'http://127.0.0.1:3000';

export default defineConfig(({ command }) => ({
  root: import.meta.dirname,
  resolve: {
    // The built app does not check answers again (the server has): zod's code stays out of
    // every page. The dev server keeps the real zod, so a drifted answer still shows there.
    alias: command === 'build' ? [{ find: /^zod$/, replacement: path.join(import.meta.dirname, 'build/unchecked-zod.ts') }] : [],
  },
  plugins: [
    inlineIconsPlugin(),
    // ko.json and en.json served in parts: `common` for every page, the rest for the screens that read it.
    catalogueParts({ dir: path.join(import.meta.dirname, 'src/i18n'), srcDir: path.join(import.meta.dirname, 'src') }),
    inertSchemasPlugin({ contractsDir: path.join(import.meta.dirname, '../../packages/contracts/src') }),
    react(),
    initialSizePlugin({ routeModule: 'src/routes/auth-login/auth-login-route.tsx', alsoLoaded: ['virtual:catalogue/ko/common'], goalKb: 300 }),
    // Last: brotli and gzip copies of the written files, served by Accept-Encoding.
    compressAssetsPlugin(),
  ],
  server: {
    proxy: {
      '/api': { target: API_TARGET, changeOrigin: false },
      '/socket.io': { target: API_TARGET, ws: true },
    },
  },
  // A catalogue as `JSON.parse('…')`, not one export per key: the module is the JSON once
  // (24 KB gzip for ko.json) instead of every key twice over (37 KB).
  json: { namedExports: false, stringify: true },
  build: {
    outDir: 'dist',
    emptyOutDir: true,
  },
}));
