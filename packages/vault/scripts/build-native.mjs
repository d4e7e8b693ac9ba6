// Builds the engine's small native addon (native/release-memory.c) at install time. The
// engine works without it, only holding more memory, so a machine that cannot build it
// (no compiler, no Node headers) gets a warning and a working install, not a failure.
import { spawnSync } from 'node:child_process';

const run = spawnSync('node-gyp', ['rebuild'], { stdio: 'inherit', shell: process.platform === 'win32' });
if (run.status !== 0) {
  console.warn('bogwan-vault: the native memory helper was not built; backups work, with a higher peak memory use.');
}
