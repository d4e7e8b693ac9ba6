// Incremental backups keep the parent's directory listings when nothing in them
// changed, and store new ones exactly where something did.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { backup } from '../src/backup.js';
import { Repository } from '../src/repository.js';
import { restore } from '../src/restore.js';
import { walkPaths } from '../src/source.js';
import { loadTree } from '../src/tree.js';
import { describeTree, tempDir, TEST_INIT } from './helpers.js';

async function run(backend: LocalBackend, dir: string) {
  const repo = await Repository.open(backend, 'pw');
  await repo.loadIndex();
  const result = await backup(repo, walkPaths([dir]), { paths: [dir] });
  const root = await loadTree(repo, result.snapshot.tree);
  const data = await loadTree(repo, root.nodes[0]!.subtree!);
  const dirs = Object.fromEntries(data.nodes.filter((n) => n.type === 'dir').map((n) => [n.name, n.subtree]));
  return { result, rootTree: result.snapshot.tree, dataTree: root.nodes[0]!.subtree!, dirs };
}

describe('incremental directory listings', () => {
  it('reuses unchanged directories, re-stores changed ones, and restores every version', async () => {
    const backend = new LocalBackend(path.join(await tempDir('incr'), 'repo'));
    await Repository.init(backend, 'pw', TEST_INIT);
    const src = path.join(await tempDir('incr-src'), 'data');
    for (const d of ['a', 'b', 'c']) {
      await fs.mkdir(path.join(src, d), { recursive: true });
      for (let i = 0; i < 20; i++) await fs.writeFile(path.join(src, d, `f${i}.txt`), `${d} file ${i}\n`.repeat(50));
    }

    const first = await run(backend, src);
    const same = await run(backend, src);
    expect(same.result.stats.blobsAdded).toBe(0);
    expect(same.rootTree).toBe(first.rootTree);

    // One file rewritten in b, one removed from c: a keeps its listing, b and c get new ones.
    await fs.writeFile(path.join(src, 'b', 'f3.txt'), 'new content\n');
    await fs.rm(path.join(src, 'c', 'f7.txt'));
    const changed = await run(backend, src);
    expect(changed.dirs.a).toBe(first.dirs.a);
    expect(changed.dirs.b).not.toBe(first.dirs.b);
    expect(changed.dirs.c).not.toBe(first.dirs.c);
    expect(changed.dataTree).not.toBe(first.dataTree);
    expect(changed.result.stats.filesRead).toBe(1);

    // Only the mode of a file changes (its ctime too, so it is read again and
    // deduplicated): its directory's listing must change as well.
    await fs.chmod(path.join(src, 'a', 'f0.txt'), 0o600);
    const modeOnly = await run(backend, src);
    expect(modeOnly.result.stats.blobsAdded).toBe(3); // listings of a, data and the root; no file data
    expect(modeOnly.dirs.a).not.toBe(changed.dirs.a);

    const target = await tempDir('incr-restore');
    const repo = await Repository.open(backend, 'pw');
    await repo.loadIndex();
    const restored = await restore(repo, 'latest', target);
    expect(restored.failed).toEqual([]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));
  });
});
