#!/usr/bin/env node
// Run by the root `prepare` step (after `npm ci`/`npm install`), where npm shows a script's
// output: says whether the backup engine's native addons were built. npm hides the output of
// the vault package's own install script when it succeeds, and that script succeeds (with a
// warning nobody sees) when node-gyp fails, because the engine works without the addons.
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const release = path.join(root, 'packages', 'vault', 'build', 'Release');
const require = createRequire(import.meta.url);

const missing = [];
for (const addon of ['blob_codec.node', 'release_memory.node']) {
  try {
    require(path.join(release, addon));
  } catch {
    missing.push(addon);
  }
}

if (missing.length === 0) {
  console.log('bogwan: backup engine native codec built (packages/vault/build/Release).');
} else {
  console.warn(
    [
      '',
      `WARNING bogwan: the backup engine's native addon(s) ${missing.join(', ')} did not build or do not load.`,
      '  Backups still work, on worker threads in JavaScript: slower and with a higher peak memory use.',
      '  To build them: install a C/C++ toolchain and Python 3 (Debian: apt-get install -y build-essential python3),',
      '  then run `npm rebuild @bogwan/vault` (or `npm ci` again). The server logs the codec in use when it starts.',
      '',
    ].join('\n'),
  );
}
