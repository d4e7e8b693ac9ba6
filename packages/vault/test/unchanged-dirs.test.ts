// A source that knows a directory did not change since the parent snapshot gives it without
// its contents: the engine takes the parent's tree for it, or, when the parent has no such
// directory (or the run is full), lists the contents the source hands it instead.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { backup } from '../src/backup.js';
import { Repository } from '../src/repository.js';
import { restore } from '../src/restore.js';
import { type SourceEntry, walkPaths } from '../src/source.js';
import { describeTree, tempDir, TEST_INIT } from './helpers.js';

/** Gives `name` (a top-level directory of the source) as unchanged; counts calls of `contents`. */
async function* withUnchanged(dir: string, name: string, listed: { count: number }): AsyncGenerator<SourceEntry> {
  const all: SourceEntry[] = [];
  for await (const entry of walkPaths([dir])) all.push(entry);
  const top = `${path.basename(dir)}/${name}`;
  const below = all.filter((e) => e.path.startsWith(`${top}/`));
  const files = below.filter((e) => e.type === 'file');
  for (const entry of all) {
    if (entry.path.startsWith(`${top}/`)) continue;
    if (entry.path !== top) {
      yield entry;
      continue;
    }
    yield {
      ...entry,
      unchanged: {
        files: files.length,
        dirs: below.length - files.length,
        size: files.reduce((sum, e) => sum + e.size, 0),
        contents: async function* () {
          listed.count++;
          yield* below;
        },
      },
    };
  }
}

async function open(backend: LocalBackend): Promise<Repository> {
  const repo = await Repository.open(backend, 'pw');
  await repo.loadIndex();
  return repo;
}

describe('directories given as unchanged', () => {
  it('take the parent tree without listing, and are listed where the parent cannot serve them', async () => {
    const backend = new LocalBackend(path.join(await tempDir('unchanged'), 'repo'));
    await Repository.init(backend, 'pw', TEST_INIT);
    const src = path.join(await tempDir('unchanged-src'), 'data');
    for (const d of ['kept', 'kept/deep', 'other']) {
      await fs.mkdir(path.join(src, d), { recursive: true });
      for (let i = 0; i < 5; i++) await fs.writeFile(path.join(src, d, `f${i}.txt`), `${d} file ${i}\n`.repeat(40));
    }
    const listed = { count: 0 };

    // No parent: the contents are listed and stored.
    const first = await backup(await open(backend), withUnchanged(src, 'kept', listed), { paths: [src] });
    expect(listed.count).toBe(1);
    expect(first.stats).toMatchObject({ files: 15, dirs: 4 });

    // With the parent: nothing below is listed or read, the statistics still count it.
    const again = await backup(await open(backend), withUnchanged(src, 'kept', listed), { paths: [src], parent: first.id });
    expect(listed.count).toBe(1);
    expect(again.stats).toMatchObject({ files: 15, dirs: 4, filesRead: 0, filesUnchanged: 15, totalSize: first.stats.totalSize });
    expect(again.snapshot.tree).toBe(first.snapshot.tree);

    // A full run lists it again.
    await backup(await open(backend), withUnchanged(src, 'kept', listed), { paths: [src], parent: first.id, full: true });
    expect(listed.count).toBe(2);

    const target = await tempDir('unchanged-restore');
    const restored = await restore(await open(backend), again.id, target);
    expect(restored.failed).toEqual([]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
  });

  it('a directory new to the parent is listed from the contents', async () => {
    const backend = new LocalBackend(path.join(await tempDir('unchanged-new'), 'repo'));
    await Repository.init(backend, 'pw', TEST_INIT);
    const src = path.join(await tempDir('unchanged-new-src'), 'data');
    await fs.mkdir(path.join(src, 'a'), { recursive: true });
    await fs.writeFile(path.join(src, 'a', 'x.txt'), 'x');
    const listed = { count: 0 };
    const first = await backup(await open(backend), walkPaths([src]), { paths: [src] });
    await fs.mkdir(path.join(src, 'b', 'c'), { recursive: true });
    await fs.writeFile(path.join(src, 'b', 'c', 'y.txt'), 'y'.repeat(5000));
    const second = await backup(await open(backend), withUnchanged(src, 'b', listed), { paths: [src], parent: first.id });
    expect(listed.count).toBe(1);
    expect(second.stats).toMatchObject({ files: 2, filesRead: 1 });
    const target = await tempDir('unchanged-new-restore');
    expect((await restore(await open(backend), second.id, target)).failed).toEqual([]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
  });
});
