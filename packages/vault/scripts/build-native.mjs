// Builds the engine's native addons at install time: the memory helper
// (native/release-memory.c) and the blob codec (native/blob-codec.c, which uses the
// OpenSSL of the Node binary and compiles zstd from the sources zstd-napi ships, copied to
// native/zstd first). The engine works without them, on worker threads and with more
// memory, so a machine that cannot build them (no compiler, no Node headers) gets a
// warning and a working install.
import { spawnSync } from 'node:child_process';
import { cpSync, rmSync } from 'node:fs';
import { createRequire } from 'node:module';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const zstdNapi = path.dirname(createRequire(import.meta.url).resolve('zstd-napi/package.json'));
const zstdCopy = path.join(here, '..', 'native', 'zstd');
rmSync(zstdCopy, { recursive: true, force: true });
cpSync(path.join(zstdNapi, 'deps', 'zstd', 'lib'), zstdCopy, { recursive: true });

const run = spawnSync('node-gyp', ['rebuild', '-j', 'max'], { cwd: path.join(here, '..'), stdio: 'inherit', shell: process.platform === 'win32' });
if (run.status !== 0) {
  console.warn('bogwan-vault: the native addons were not built; backups work on worker threads, slower and with a higher peak memory use.');
}
