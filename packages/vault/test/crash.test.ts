// Crash and fault tests against the built CLI on a local directory: the process is
// killed with SIGKILL in the middle of a backup, a prune and a restore; afterwards
// `check` must pass and the next run must complete with the right result. A full disk
// at the restore target must give a clear error and leave the repository intact.
import { type ChildProcess, execFileSync, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { type FSWatcher, readdirSync, watch } from 'node:fs';
import fs from 'node:fs/promises';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { describeTree, tempDir as makeTempDir } from './helpers.js';

const pkg = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const bin = path.join(pkg, 'bin', 'bogwan-vault.js');
const env = { ...process.env, BOGWAN_VAULT_PASSWORD: 'crash test password' };
// Small chunks and packs: many packs from a modest data set, so a kill lands mid-way.
const INIT = ['--pack-size', String(512 * 1024), '--chunk-size', String(64 * 1024)];

// The data sets here are tens of megabytes: remove every directory afterwards.
const created: string[] = [];
async function tempDir(label: string): Promise<string> {
  const dir = await makeTempDir(label);
  created.push(dir);
  return dir;
}

interface Outcome {
  code: number | null;
  signal: NodeJS.Signals | null;
  out: string;
  err: string;
}

function run(args: string[], prefix: string[] = []): Outcome {
  const [cmd, ...rest] = prefix.length ? prefix : [process.execPath];
  const r = spawnSync(cmd!, [...rest, ...(prefix.length ? [process.execPath] : []), bin, ...args], { encoding: 'utf8', env });
  return { code: r.status, signal: r.signal, out: r.stdout, err: r.stderr };
}

function ok(args: string[]): Outcome {
  const r = run(args);
  if (r.code !== 0) throw new Error(`bogwan-vault ${args.join(' ')} exited ${r.code}:\n${r.out}\n${r.err}`);
  return r;
}

/**
 * Starts the CLI and SIGKILLs it as soon as `trigger` (polled, or pushed through
 * `arm`) fires. `killed` says whether the kill landed before the process finished.
 */
async function killWhen(
  args: string[],
  trigger: { poll?: () => Promise<boolean>; arm?: (fire: () => void) => () => void },
): Promise<Outcome & { killed: boolean }> {
  const child: ChildProcess = spawn(process.execPath, [bin, ...args], { env });
  let out = '';
  let err = '';
  child.stdout!.on('data', (d) => (out += d));
  child.stderr!.on('data', (d) => (err += d));
  let exited = false;
  let killed = false;
  const fire = (): void => {
    if (!exited && !killed) killed = child.kill('SIGKILL');
  };
  const disarm = trigger.arm?.(fire);
  const done = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolve) =>
    child.on('exit', (code, signal) => {
      exited = true;
      resolve({ code, signal });
    }),
  );
  if (trigger.poll) {
    void (async () => {
      while (!exited && !killed) {
        if (await trigger.poll!()) fire();
        else await new Promise((r) => setTimeout(r, 5));
      }
    })();
  }
  const { code, signal } = await done;
  disarm?.();
  return { code, signal, out, err, killed: killed && signal === 'SIGKILL' };
}

/**
 * Calls `fire` as soon as a pack that is not in `before` (paths relative to `dataDir`) has
 * its final name: watchers on the data directory and on each of its sub-directories, one
 * added as soon as its directory appears (and read once, for a pack named before the watcher
 * was in place). A poll of the whole tree could miss a prune that ends between two looks on a
 * busy machine. Answers how to stop watching.
 */
function watchNewPacks(dataDir: string, before: Set<string>, fire: () => void): () => void {
  const watchers = new Map<string, FSWatcher>();
  const seen = (sub: string, name: string | null) => {
    if (name && !name.includes('.tmp-') && !before.has(path.join(sub, name))) fire();
  };
  const watchSub = (sub: string) => {
    if (watchers.has(sub)) return;
    try {
      watchers.set(
        sub,
        watch(path.join(dataDir, sub), (_event, name) => seen(sub, name)),
      );
      for (const name of readdirSync(path.join(dataDir, sub))) seen(sub, name);
    } catch {
      // Not a directory, or gone again.
    }
  };
  watchers.set(
    '',
    watch(dataDir, (_event, name) => name && watchSub(name)),
  );
  for (const sub of readdirSync(dataDir)) watchSub(sub);
  return () => {
    for (const watcher of watchers.values()) watcher.close();
  };
}

async function filesUnder(dir: string): Promise<string[]> {
  const out: string[] = [];
  const walk = async (d: string): Promise<void> => {
    for (const e of await fs.readdir(d, { withFileTypes: true }).catch(() => [])) {
      const p = path.join(d, e.name);
      if (e.isDirectory()) await walk(p);
      else out.push(path.relative(dir, p));
    }
  };
  await walk(dir);
  return out;
}

/** Many small files (text and random) plus a few larger random ones. */
async function makeDataset(root: string, dirs: number, bigFiles: number, bigSize: number): Promise<void> {
  for (let d = 0; d < dirs; d++) {
    const dir = path.join(root, `dir-${d}`, d % 3 === 0 ? '하위 폴더' : 'sub');
    await fs.mkdir(dir, { recursive: true });
    for (let i = 0; i < 100; i++) {
      const n = d * 100 + i;
      const content = n % 2 ? Buffer.from(`line ${n} of a compressible text file\n`.repeat(50 + (n % 400))) : randomBytes(500 + ((n * 7919) % 40_000));
      await fs.writeFile(path.join(dir, `file-${i}.${n % 2 ? 'txt' : 'bin'}`), content);
    }
  }
  for (let i = 0; i < bigFiles; i++) await fs.writeFile(path.join(root, `big-${i}.bin`), randomBytes(bigSize));
}

function snapshotIdOf(r: Outcome): string {
  const id = r.out.trim().split('\n').at(-1)!;
  expect(id).toMatch(/^[0-9a-f]{64}$/);
  return id;
}

describe('crashes and faults (built CLI, local directory)', () => {
  let src = '';
  let repo = '';

  beforeAll(async () => {
    execFileSync(process.execPath, ['build.mjs'], { cwd: pkg });
    // ~2,000 small files and 4 × 12 MiB: about 80 MB, a few seconds of work per step.
    src = path.join(await tempDir('crash-src'), 'data');
    await makeDataset(src, 20, 4, 12 * 1024 * 1024);
    repo = path.join(await tempDir('crash-repo'), 'repo');
    ok(['init', '--repo', repo, ...INIT]);
    ok(['backup', '--repo', repo, src]);
  }, 120_000);

  afterAll(async () => {
    for (const dir of created) await fs.rm(dir, { recursive: true, force: true });
  });

  it('kill -9 during a backup: check passes, the next run resumes and restores byte-identical', async () => {
    const r = path.join(await tempDir('crash-backup'), 'repo');
    ok(['init', '--repo', r, ...INIT]);
    // Kill once a checkpoint exists and a few more packs were written after it.
    let packsAtCheckpoint = -1;
    const killed = await killWhen(['backup', '--repo', r, '--checkpoint-interval', '0.2', src], {
      poll: async () => {
        const packs = (await filesUnder(path.join(r, 'data'))).length;
        if (packsAtCheckpoint < 0) {
          if ((await filesUnder(path.join(r, 'snapshots'))).some((f) => !f.includes('.tmp-'))) packsAtCheckpoint = packs;
          return false;
        }
        return packs >= packsAtCheckpoint + 3;
      },
    });
    expect(killed.killed, `backup finished before the kill:\n${killed.out}`).toBe(true);
    const snaps = ok(['snapshots', '--repo', r]).out.trim().split('\n');
    expect(snaps).toHaveLength(1);
    expect(snaps[0]).toContain('(interrupted checkpoint)');
    // The dead process's lock and unindexed packs do not stop check.
    expect(ok(['check', '--repo', r]).code).toBe(0);

    const resumed = ok(['backup', '--repo', r, src]);
    const m = /files: (\d+) \((\d+) read, (\d+) unchanged, (\d+) resumed\)/.exec(resumed.out)!;
    const [files, read, resumedFiles] = [Number(m[1]), Number(m[2]), Number(m[4])];
    expect(resumedFiles).toBeGreaterThan(0);
    expect(read).toBe(files - resumedFiles);
    const id = snapshotIdOf(resumed);
    const list = ok(['snapshots', '--repo', r]).out;
    expect(list).not.toContain('checkpoint');
    expect(list).toContain(id.slice(0, 8));

    expect(ok(['check', '--repo', r, '--read-data']).code).toBe(0);
    const target = await tempDir('crash-backup-restore');
    ok(['restore', '--repo', r, 'latest', '--target', target]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
    // The leftovers of the killed run (orphan packs, temp files) go with the next prune.
    ok(['prune', '--repo', r]);
    const after = ok(['check', '--repo', r]);
    expect(after.out).not.toContain('warning');
    expect((await filesUnder(r)).filter((f) => f.includes('.tmp-'))).toEqual([]);
  });

  it('kill -9 during a prune (repacking, then at the index switch): check passes, prune completes, everything restores', async () => {
    const base = await tempDir('crash-prune');
    const data = path.join(base, 'data');
    await makeDataset(data, 10, 2, 6 * 1024 * 1024);
    const r = path.join(base, 'repo');
    ok(['init', '--repo', r, ...INIT]);
    ok(['backup', '--repo', r, data]);
    // Remove half of the small files and a big file, so most packs are partly unused.
    for (let d = 0; d < 10; d += 2) await fs.rm(path.join(data, `dir-${d}`), { recursive: true });
    for (let d = 1; d < 10; d += 2) {
      const dir = path.join(data, `dir-${d}`, d % 3 === 0 ? '하위 폴더' : 'sub');
      for (let i = 0; i < 100; i += 2) await fs.rm(path.join(dir, `file-${i}.bin`));
    }
    await fs.rm(path.join(data, 'big-0.bin'));
    await fs.writeFile(path.join(data, 'new.txt'), 'added after the first backup\n'.repeat(1000));
    ok(['backup', '--repo', r, data]);
    ok(['forget', '--repo', r, '--keep-last', '1']);
    const expected = await describeTree(data);

    // 1. Kill while repacking: as soon as the first new pack appears.
    const packsBefore = new Set(await filesUnder(path.join(r, 'data')));
    const first = await killWhen(['prune', '--repo', r], { arm: (fire) => watchNewPacks(path.join(r, 'data'), packsBefore, fire) });
    expect(first.killed, `prune finished before the kill:\n${first.out}`).toBe(true);
    expect(ok(['check', '--repo', r]).code).toBe(0);
    let target = await tempDir('crash-prune-restore');
    ok(['restore', '--repo', r, 'latest', '--target', target]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(expected);

    // 2. Kill right after the new index is in place, while old files are being deleted.
    const indexBefore = new Set(await fs.readdir(path.join(r, 'index')));
    const second = await killWhen(['prune', '--repo', r], {
      arm: (fire) => {
        const watcher = watch(path.join(r, 'index'), (_event, name) => {
          if (name && !name.includes('.tmp-') && !indexBefore.has(name)) fire();
        });
        return () => watcher.close();
      },
    });
    // Deleting is quick, so the kill may land just after the end; both must be fine.
    expect(second.killed || second.code === 0).toBe(true);
    expect(ok(['check', '--repo', r]).code).toBe(0);

    // 3. A prune run to completion cleans up, and every snapshot still restores.
    ok(['prune', '--repo', r]);
    const checked = ok(['check', '--repo', r, '--read-data']);
    expect(checked.out).not.toContain('warning');
    expect((await filesUnder(r)).filter((f) => f.includes('.tmp-'))).toEqual([]);
    target = await tempDir('crash-prune-restore');
    ok(['restore', '--repo', r, 'latest', '--target', target]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(expected);
  });

  it('kill -9 during a restore: check passes, the re-run uses its journal and is byte-identical', async () => {
    const target = await tempDir('crash-restore');
    // Kill once the journal lists finished files (it is appended every 256 files).
    const killed = await killWhen(['restore', '--repo', repo, 'latest', '--target', target], {
      poll: async () => {
        const journal = (await fs.readdir(target)).find((n) => n.startsWith('.bogwan-restore-'));
        return journal !== undefined && ((await fs.stat(path.join(target, journal)).catch(() => null))?.size ?? 0) > 0;
      },
    });
    expect(killed.killed, `restore finished before the kill:\n${killed.out}`).toBe(true);
    expect(ok(['check', '--repo', repo]).code).toBe(0);

    const again = ok(['restore', '--repo', repo, 'latest', '--target', target]);
    const m = /restored (\d+) files \((\d+) already in place\)/.exec(again.out)!;
    // Files the journal lists are skipped without reading them.
    expect(Number(m[2])).toBeGreaterThanOrEqual(256);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
    // Finished without failures: the journal is gone.
    expect((await fs.readdir(target)).filter((n) => n.startsWith('.bogwan-restore-'))).toEqual([]);
  });

  it('a full disk at the restore target gives a clear error and leaves the repository intact', async () => {
    const target = await tempDir('crash-full');
    // A 2 MiB tmpfs when mounting is allowed (root); otherwise (or with
    // VAULT_TEST_NO_MOUNT=1) a 2 MiB file size limit, which fails writes the same way.
    const mounted = !process.env.VAULT_TEST_NO_MOUNT && spawnSync('mount', ['-t', 'tmpfs', '-o', 'size=2m', 'tmpfs', target]).status === 0;
    const prefix = mounted ? [] : ['sh', '-c', 'trap "" XFSZ; ulimit -f 4096; exec "$0" "$@"'];
    try {
      const full = run(['restore', '--repo', repo, 'latest', '--target', target], prefix);
      expect(full.code).toBe(1);
      expect(full.err).toMatch(mounted ? /no space left on the device \[ENOSPC\]/ : /file too large .*\[EFBIG\]/);
      expect(full.err).toContain('the repository is unchanged');
      expect(full.err.trim().split('\n')).toHaveLength(1);
    } finally {
      if (mounted) spawnSync('umount', [target]);
    }
    expect(await fs.readdir(path.join(repo, 'locks'))).toEqual([]);
    expect(ok(['check', '--repo', repo, '--read-data']).out).not.toContain('warning');
    const elsewhere = await tempDir('crash-full-retry');
    ok(['restore', '--repo', repo, 'latest', '--target', elsewhere]);
    expect(await describeTree(path.join(elsewhere, 'data'))).toEqual(await describeTree(src));
  });
});
