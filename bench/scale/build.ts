// The server under test, built from the last commit in a directory of its own: the shared
// checkout's build output changes whenever anyone rebuilds, and its working tree may hold
// unfinished work. Dependencies are the checkout's installed packages (linked, not copied);
// the workspace packages are this export's own; the backup engine's native codec is the
// checkout's compiled one.
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { repo } from './server.js';

const PARTS = ['package.json', 'tsconfig.base.json', 'apps/server', 'apps/web/src/i18n', 'packages/contracts', 'packages/vault'];
const WORKSPACE: Record<string, string> = { contracts: 'packages/contracts', vault: 'packages/vault', server: 'apps/server' };

/** Exports `commit` into `dir`, builds the backup engine and the server there; answers the server's main.js. */
export function buildAt(dir: string, commit: string): string {
  fs.mkdirSync(dir, { recursive: true });
  const archive = execFileSync('git', ['-C', repo, 'archive', commit, ...PARTS], { maxBuffer: 1 << 30 });
  execFileSync('tar', ['-x', '-C', dir], { input: archive });
  const modules = path.join(dir, 'node_modules');
  fs.mkdirSync(path.join(modules, '@bogwan'), { recursive: true });
  for (const entry of fs.readdirSync(path.join(repo, 'node_modules'))) {
    if (entry === '@bogwan') continue;
    fs.symlinkSync(path.join(repo, 'node_modules', entry), path.join(modules, entry));
  }
  for (const [name, where] of Object.entries(WORKSPACE)) fs.symlinkSync(path.join(dir, where), path.join(modules, '@bogwan', name));
  fs.cpSync(path.join(repo, 'packages/vault/build'), path.join(dir, 'packages/vault/build'), { recursive: true });
  for (const where of ['packages/vault', 'apps/server']) execFileSync(process.execPath, ['build.mjs'], { cwd: path.join(dir, where), stdio: 'inherit' });
  return path.join(dir, 'apps/server/dist/main.js');
}
