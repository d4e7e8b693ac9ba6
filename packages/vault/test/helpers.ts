import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import S3rver from 's3rver';
import { afterAll } from 'vitest';
import type { Backend } from '../src/backend/backend.js';
import { LocalBackend } from '../src/backend/local.js';
import { S3Backend } from '../src/backend/s3.js';
import type { InitOptions } from '../src/repository.js';

/** Small parameters so tests produce many chunks and packs from little data. */
export const TEST_INIT: InitOptions = {
  kdf: { N: 1024, r: 8, p: 1 },
  chunker: { min: 16 * 1024, avg: 64 * 1024, max: 256 * 1024 },
  packSize: 512 * 1024,
};

/** Directories tempDir() made for the test file running; removed when it ends. */
const made: string[] = [];
// Registered when a test file first loads this module (each file loads its own copy).
afterAll(async () => {
  await Promise.all(made.splice(0).map((dir) => fs.rm(dir, { recursive: true, force: true })));
});

/** Fresh temporary directory, removed after the test file's last test. */
export async function tempDir(label: string): Promise<string> {
  const dir = await fs.mkdtemp(path.join(os.tmpdir(), `vault-${label}-`));
  made.push(dir);
  return dir;
}

/** A backend factory that hands out an empty repository location per call. */
export interface BackendKind {
  name: string;
  setup(): Promise<void>;
  make(): Promise<Backend>;
  teardown(): Promise<void>;
}

/** Local directory backends. */
export function localKind(): BackendKind {
  return {
    name: 'local',
    setup: async () => {},
    make: async () => new LocalBackend(path.join(await tempDir('repo'), 'repo')),
    teardown: async () => {},
  };
}

/** S3 backends on an s3rver started here on a random loopback port; never skipped. */
export function s3Kind(): BackendKind {
  let server: S3rver | null = null;
  let endpoint = '';
  let counter = 0;
  const backends: S3Backend[] = [];
  return {
    name: 's3',
    setup: async () => {
      server = new S3rver({ port: 0, address: '127.0.0.1', silent: true, directory: await tempDir('s3rver'), configureBuckets: [{ name: 'vault' }] });
      const info = await server.run();
      endpoint = `http://127.0.0.1:${info.port}`;
    },
    make: async () => {
      const backend = new S3Backend({
        bucket: 'vault',
        prefix: `repo-${process.pid}-${counter++}`,
        endpoint,
        accessKeyId: 'S3RVER',
        secretAccessKey: 'S3RVER',
        region: 'us-east-1',
      });
      backends.push(backend);
      return backend;
    },
    teardown: async () => {
      // Closing a backend removes its spool directory (closing twice does no harm).
      await Promise.all(backends.splice(0).map((backend) => backend.close()));
      await server?.close();
    },
  };
}

function rand(n: number): Buffer {
  return randomBytes(n);
}

/** Writes a varied tree: sparse, empty, large, Korean-named files, empty dirs, symlinks. */
export async function makeTree(root: string): Promise<void> {
  await fs.mkdir(path.join(root, '문서', '깊은 폴더'), { recursive: true });
  await fs.mkdir(path.join(root, 'empty-dir'), { recursive: true });
  await fs.mkdir(path.join(root, 'many'), { recursive: true });
  await fs.writeFile(path.join(root, 'empty.txt'), '');
  await fs.writeFile(path.join(root, '문서', '보고서 2024.txt'), '안녕하세요, 보관입니다.\n'.repeat(500));
  await fs.writeFile(path.join(root, '문서', '깊은 폴더', '사진.bin'), rand(70_000));
  await fs.writeFile(path.join(root, 'large.bin'), rand(3 * 1024 * 1024 + 123));
  await fs.writeFile(path.join(root, 'text.log'), 'line of a compressible log file\n'.repeat(20_000));
  for (let i = 0; i < 40; i++) await fs.writeFile(path.join(root, 'many', `f${i}.dat`), rand(1 + ((i * 7919) % 20_000)));
  const sparse = await fs.open(path.join(root, 'sparse.img'), 'w');
  await sparse.truncate(4 * 1024 * 1024);
  await sparse.write(Buffer.from('middle'), 0, 6, 2 * 1024 * 1024);
  await sparse.close();
  await fs.symlink('문서/보고서 2024.txt', path.join(root, 'link-to-report'));
  await fs.symlink('/nonexistent/target', path.join(root, 'dangling'));
  await fs.chmod(path.join(root, 'text.log'), 0o600);
}

/** A comparable description of a tree: types, modes, sizes, mtimes, hashes, link targets. */
export async function describeTree(root: string, skip: (rel: string) => boolean = () => false): Promise<Record<string, string>> {
  const out: Record<string, string> = {};
  const walk = async (dir: string, rel: string): Promise<void> => {
    for (const name of (await fs.readdir(dir)).sort()) {
      const r = rel ? `${rel}/${name}` : name;
      if (name.startsWith('.bogwan-restore-') || skip(r)) continue;
      const abs = path.join(dir, name);
      const st = await fs.lstat(abs);
      if (st.isSymbolicLink()) out[r] = `link ${await fs.readlink(abs)}`;
      else if (st.isDirectory()) {
        out[r] = `dir ${(st.mode & 0o7777).toString(8)}`;
        await walk(abs, r);
      } else {
        const hash = createHash('sha256')
          .update(await fs.readFile(abs))
          .digest('hex');
        out[r] = `file ${(st.mode & 0o7777).toString(8)} ${st.size} ${Math.floor(st.mtimeMs)} ${hash}`;
      }
    }
  };
  await walk(root, '');
  return out;
}

/**
 * Restores over a file that exists with the right size but wrong bytes where the source has
 * zeros: the zeros must be written over them (only files the restore created keep zeros as
 * holes). Answers whether the restored tree equals the source.
 */
export async function restoreOverWrongZeros(label: string): Promise<{ same: boolean; failed: unknown[] }> {
  const { Repository } = await import('../src/repository.js');
  const { backup } = await import('../src/backup.js');
  const { restore } = await import('../src/restore.js');
  const { walkPaths } = await import('../src/source.js');
  const dir = await tempDir(label);
  const src = path.join(dir, 'src');
  await fs.mkdir(src);
  const MiB = 1024 * 1024;
  // 20 MiB of zeros: at least one chunk (8 MiB at most) is zeros alone.
  const file = Buffer.concat([randomBytes(3 * MiB), Buffer.alloc(20 * MiB), randomBytes(3 * MiB)]);
  await fs.writeFile(path.join(src, 'disk.img'), file);
  const backend = new LocalBackend(path.join(dir, 'repo'));
  await Repository.init(backend, 'p', { kdf: { N: 1024, r: 8, p: 1 }, chunker: { min: 512 * 1024, avg: MiB, max: 8 * MiB }, packSize: 16 * MiB });
  const repo = await Repository.open(backend, 'p');
  await repo.loadIndex();
  await backup(repo, walkPaths([src]), { paths: [src] });
  const target = path.join(dir, 'restored');
  await restore(repo, 'latest', target);
  // The zeros in the middle overwritten with other bytes, the size kept.
  const restored = path.join(target, 'src', 'disk.img');
  const handle = await fs.open(restored, 'r+');
  await handle.write(Buffer.alloc(20 * MiB, 0x5a), 0, 20 * MiB, 3 * MiB);
  await handle.close();
  const again = await restore(repo, 'latest', target);
  return { same: JSON.stringify(await describeTree(path.join(target, 'src'))) === JSON.stringify(await describeTree(src)), failed: again.failed };
}
