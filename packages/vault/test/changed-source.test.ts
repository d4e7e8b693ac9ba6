// Files that change between the walk and the read: one replaced by a named pipe is refused
// with a clear error instead of waiting for a writer forever, on every way the engine
// reads (reader threads, the read window, the entry's own stream).
import { execFileSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { backup } from '../src/backup.js';
import { FileReaders } from '../src/file-readers.js';
import { nativeCodec } from '../src/native.js';
import { Repository } from '../src/repository.js';
import { readFileChunks, type SourceEntry, walkPaths } from '../src/source.js';
import { TEST_INIT, tempDir } from './helpers.js';

async function fifoAt(file: string): Promise<void> {
  await fs.rm(file, { force: true });
  execFileSync('mkfifo', [file]);
}

async function drain(stream: AsyncIterable<Uint8Array>): Promise<number> {
  let n = 0;
  for await (const piece of stream) n += piece.length;
  return n;
}

describe('a file replaced by a named pipe after the walk', () => {
  it('is refused by the file readers (native codec and threads) and by the entry stream', async () => {
    const file = path.join(await tempDir('fifo'), 'pipe');
    await fifoAt(file);
    for (const codec of [nativeCodec(), null]) {
      const readers = new FileReaders(randomBytes(32), randomBytes(32), 1024, 1, codec);
      try {
        await expect(readers.read(file, 10)).rejects.toMatchObject({ code: 'ENOTREG' });
      } finally {
        await readers.close();
      }
    }
    await expect(drain(readFileChunks(file, 10))).rejects.toMatchObject({ code: 'ENOTREG' });
  });

  it('fails the backup with that error, small or large, and the next backup of the restored file completes', async () => {
    const root = path.join(await tempDir('fifo-backup'), 'data');
    await fs.mkdir(root);
    const backend = new LocalBackend(path.join(await tempDir('fifo-repo'), 'repo'));
    await Repository.init(backend, 'pw', TEST_INIT);
    for (const [name, size] of [
      ['small', 2000],
      ['large', 3 * 1024 * 1024],
    ] as const) {
      const file = path.join(root, name);
      await fs.writeFile(file, randomBytes(size));
      const entries: SourceEntry[] = [];
      for await (const entry of walkPaths([root])) entries.push(entry);
      await fifoAt(file);
      const repo = await Repository.open(backend, 'pw');
      await repo.loadIndex();
      const source = (async function* () {
        yield* entries;
      })();
      await expect(backup(repo, source, { paths: [root] }), name).rejects.toMatchObject({ code: 'ENOTREG' });
      await fs.rm(file);
    }
    await fs.writeFile(path.join(root, 'small'), 'back');
    const repo = await Repository.open(backend, 'pw');
    await repo.loadIndex();
    await expect(backup(repo, walkPaths([root]), { paths: [root] })).resolves.toMatchObject({ stats: { files: 1 } });
  });
});
