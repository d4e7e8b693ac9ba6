// A large backup lists its packs in several index files as it goes; loading reads them
// all, and a file another one supersedes (a prune stopped before deleting it) is left out.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { backup } from '../src/backup.js';
import { decodeIndex } from '../src/index-file.js';
import { openFile } from '../src/codec.js';
import { Repository } from '../src/repository.js';
import { restore } from '../src/restore.js';
import { walkPaths } from '../src/source.js';
import { describeTree, tempDir, TEST_INIT } from './helpers.js';

async function filled(label: string) {
  const backend = new LocalBackend(path.join(await tempDir(label), 'repo'));
  await Repository.init(backend, 'pw', { ...TEST_INIT, packSize: 4096 });
  const src = path.join(await tempDir(`${label}-src`), 'data');
  await fs.mkdir(src, { recursive: true });
  // Incompressible, so that the small packs fill and each holds a few files.
  for (let i = 0; i < 60; i++) await fs.writeFile(path.join(src, `f${i}.bin`), randomBytes(3000 + i));
  return { backend, src };
}

const indexNames = async (backend: LocalBackend) => (await backend.list('index/')).map((f) => f.name.slice('index/'.length));

describe('index files', () => {
  it('a backup writes its listings in several files; a reload finds every blob and nothing is stored twice', async () => {
    const { backend, src } = await filled('idx-many');
    const repo = await Repository.open(backend, 'pw');
    await repo.loadIndex();
    const first = await backup(repo, walkPaths([src]), { paths: [src], indexFileBytes: 500 });
    expect((await indexNames(backend)).length).toBeGreaterThan(3);

    const again = await Repository.open(backend, 'pw');
    await again.loadIndex();
    expect(again.index.size).toBe(first.stats.blobsAdded);
    const second = await backup(again, walkPaths([src]), { paths: [src] });
    expect(second.stats.blobsAdded).toBe(0);

    const target = await tempDir('idx-many-restore');
    const restored = await restore(again, 'latest', target);
    expect(restored.failed).toEqual([]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
  });

  it('a superseded index file left behind is not loaded, whichever order the files are listed in', async () => {
    const { backend, src } = await filled('idx-superseded');
    const repo = await Repository.open(backend, 'pw');
    await repo.loadIndex();
    await backup(repo, walkPaths([src]), { paths: [src], indexFileBytes: 500 });
    const names = await indexNames(backend);
    const old = names[0]!;
    const contents = decodeIndex(openFile(repo.key.encKey, 'index', await backend.get(`index/${old}`)));
    // The superseding file lists the same blobs; one says another raw length, to tell whose location won.
    const marked = contents.packs[0]!.entries[0]!;
    const replacement = await repo.writeIndex({
      superseded: [old],
      packs: contents.packs.map((p) => ({ id: p.id, entries: p.entries.map((e) => (e === marked ? { ...e, rawLength: e.rawLength + 1 } : e)) })),
    });

    const reopened = await Repository.open(backend, 'pw');
    await reopened.loadIndex();
    expect(reopened.indexFiles).not.toContain(old);
    expect(reopened.indexFiles).toContain(replacement);
    expect(reopened.indexFilesOnDisk).toContain(old);
    expect(reopened.index.get(marked.id)!.rawLength).toBe(marked.rawLength + 1);
    expect(reopened.index.size).toBe(repo.index.size);
  });
});
