import { execFileSync, spawn, spawnSync } from 'node:child_process';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { beforeAll, describe, expect, it } from 'vitest';
import { describeTree, makeTree, tempDir } from './helpers.js';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(pkg, 'bin', 'bogwan-vault.js');

// The engine seals, reads and verifies through its native codec where it was built, on
// worker threads otherwise; both must write and read the same repository format.
const NATIVE = { BOGWAN_VAULT_NATIVE: '1' };
const THREADS = { BOGWAN_VAULT_NATIVE: '0' };

function runWith(way: Record<string, string>, args: string[], password = 'cli password') {
  const r = spawnSync(process.execPath, [bin, ...args], { encoding: 'utf8', env: { ...process.env, ...way, BOGWAN_VAULT_PASSWORD: password } });
  return { code: r.status, out: r.stdout, err: r.stderr };
}

describe('bogwan-vault CLI (built dist)', () => {
  beforeAll(() => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: pkg });
  });

  it.each([
    ['the native codec', NATIVE, THREADS],
    ['worker threads', THREADS, NATIVE],
  ])('init, backup, snapshots, restore latest, check and damage, through %s (read back by the other way too)', async (_way, way, other) => {
    const run = (args: string[], password?: string) => runWith(way, args, password);
    const repo = path.join(await tempDir('cli'), 'repo');
    const src = path.join(await tempDir('cli-src'), 'data');
    await makeTree(src);

    expect(run(['init', '--repo', repo]).code).toBe(0);
    const first = run(['backup', '--repo', repo, src]);
    expect(first.code).toBe(0);
    const id = first.out.trim().split('\n').at(-1)!;
    expect(id).toMatch(/^[0-9a-f]{64}$/);
    const second = run(['backup', '--repo', repo, src]);
    expect(second.out).toMatch(/0 read/);

    const list = run(['snapshots', '--repo', repo]);
    expect(list.out).toContain(id.slice(0, 8));
    expect(list.out.trim().split('\n')).toHaveLength(2);

    const target = await tempDir('cli-restore');
    expect(run(['restore', '--repo', repo, 'latest', '--target', target]).code).toBe(0);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
    expect(run(['check', '--repo', repo, '--read-data']).code).toBe(0);
    expect(runWith(other, ['check', '--repo', repo, '--read-data']).code).toBe(0);
    const again = await tempDir('cli-restore-other');
    expect(runWith(other, ['restore', '--repo', repo, 'latest', '--target', again]).code).toBe(0);
    expect(await describeTree(path.join(again, 'data'))).toEqual(await describeTree(src));

    const wrong = run(['snapshots', '--repo', repo], 'not the password');
    expect(wrong.code).not.toBe(0);
    expect(wrong.err).toContain('wrong password or no key slot matches');
    const missing = run(['snapshots', '--repo', path.join(target, 'nothing-here')]);
    expect(missing.code).not.toBe(0);
    expect(missing.err).toContain('no repository at');

    const packDir = path.join(repo, 'data');
    const sub = (await fs.readdir(packDir))[0]!;
    const pack = path.join(packDir, sub, (await fs.readdir(path.join(packDir, sub)))[0]!);
    const bytes = await fs.readFile(pack);
    bytes[10]! ^= 1;
    await fs.writeFile(pack, bytes);
    const damaged = run(['check', '--repo', repo, '--read-data-subset=100%']);
    expect(damaged.code).not.toBe(0);
    expect(damaged.err).toContain('is damaged');
    expect(runWith(other, ['check', '--repo', repo, '--read-data-subset=100%']).err).toContain('is damaged');
  });

  it('runs as a program, as npx runs it: Node with its flag, the same process, every argument as given', async () => {
    const dir = await tempDir('cli program');
    const repo = path.join(dir, "repo with 'quotes' and $HOME");
    const src = path.join(dir, '자료 $(echo no)');
    await fs.mkdir(src);
    await fs.writeFile(path.join(src, 'a.txt'), 'hello\n');
    const env = { ...process.env, PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`, BOGWAN_VAULT_PASSWORD: 'pw' };
    expect(spawnSync(bin, ['init', '--repo', repo], { env }).status).toBe(0);
    const child = spawn(bin, ['backup', '--repo', repo, src], { env });
    let out = '';
    child.stdout.on('data', (d: Buffer) => (out += d.toString()));
    const closed = new Promise<number | null>((resolve) => child.on('close', resolve));
    // The shell line replaces itself with Node: the pid npx (or a kill -9) holds becomes Node's.
    let args: string[] = [];
    for (let i = 0; i < 500 && child.exitCode === null; i++) {
      args = (await fs.readFile(`/proc/${child.pid}/cmdline`, 'utf8').catch(() => '')).split('\0');
      if (args[0] === 'node') break;
      await new Promise((r) => setTimeout(r, 5));
    }
    expect(await closed).toBe(0);
    expect(args.slice(0, 4)).toEqual(['node', '--max-semi-space-size=4', bin, 'backup']);
    expect(args.slice(4, 7)).toEqual(['--repo', repo, src]);
    expect(out.trim().split('\n').at(-1)).toMatch(/^[0-9a-f]{64}$/);
  });
});
