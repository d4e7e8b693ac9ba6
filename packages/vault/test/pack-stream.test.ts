import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { backup } from '../src/backup.js';
import { BlobType } from '../src/blob-index.js';
import { check } from '../src/check.js';
import { openBlob, sealBlobParts } from '../src/codec.js';
import { PackBuilder, packName, parsePackHeader } from '../src/pack.js';
import { Repository } from '../src/repository.js';
import { restore } from '../src/restore.js';
import { walkPaths } from '../src/source.js';
import { describeTree, localKind, s3Kind, TEST_INIT, tempDir } from './helpers.js';

const PASSWORD = 'pack stream test';
const MiB = 1024 * 1024;

describe('a pack streamed to its spool', () => {
  it('lays blobs out in an order that does not follow the input, names the pack by its bytes, and parses back', async () => {
    const backend = new LocalBackend(path.join(await tempDir('spool'), 'repo'));
    const encKey = randomBytes(32);
    const builder = new PackBuilder(() => backend.spool());
    const added: Buffer[] = [];
    // 12 MiB through a 4 MiB shuffle window and 1 MiB write batches.
    for (let i = 0; i < 120; i++) {
      const id = createHash('sha256').update(`blob ${i}`).digest();
      added.push(id);
      await builder.add(id, BlobType.Data, sealBlobParts(encKey, id, randomBytes(100 * 1024), false), 100 * 1024);
    }
    const pack = await builder.finish(encKey);
    await pack.spool.commit(packName(pack.id));

    const stored = await backend.get(packName(pack.id));
    expect(stored.length).toBe(pack.size);
    expect(createHash('sha256').update(stored).digest().equals(pack.id)).toBe(true);
    const entries = parsePackHeader(encKey, stored, stored.length);
    expect(entries.map((e) => e.offset)).toEqual(pack.entries().map((e) => e.offset));
    expect(new Set(entries.map((e) => e.id.toString('hex')))).toEqual(new Set(added.map((id) => id.toString('hex'))));
    const order = entries.map((e) => added.findIndex((id) => id.equals(e.id)));
    expect(order).not.toEqual([...order].sort((a, b) => a - b));
    // Each blob's pieces lie back to back: every blob opens from its span of the pack.
    for (const e of entries) expect(openBlob(encKey, e.id, stored.subarray(e.offset, e.offset + e.length))).toHaveLength(100 * 1024);
    // Nothing of the spool is left beside the pack.
    expect(await backend.leftovers('data/')).toEqual([]);
  });

  it('lists tens of thousands of small blobs (more than the shuffle window holds) as the stored header does', async () => {
    const backend = new LocalBackend(path.join(await tempDir('spool'), 'repo'));
    const encKey = randomBytes(32);
    const builder = new PackBuilder(() => backend.spool());
    const added = new Map<string, number>();
    for (let i = 0; i < 20_000; i++) {
      const id = createHash('sha256').update(`small ${i}`).digest();
      added.set(id.toString('hex'), 40 + (i % 200));
      await builder.add(id, i % 2 ? BlobType.Data : BlobType.Tree, sealBlobParts(encKey, id, randomBytes(40 + (i % 200)), false), 40 + (i % 200));
    }
    expect(builder.count).toBe(20_000);
    const pack = await builder.finish(encKey);
    await pack.spool.commit(packName(pack.id));
    const stored = await backend.get(packName(pack.id));
    const parsed = parsePackHeader(encKey, stored, stored.length);
    expect(pack.entries()).toEqual(parsed);
    expect(parsed).toHaveLength(20_000);
    const order = parsed.map((e) => e.id.toString('hex'));
    expect(order).not.toEqual([...added.keys()]);
    for (const e of parsed) {
      expect(e.type).toBe(e.rawLength % 2 === 0 ? BlobType.Tree : BlobType.Data);
      expect(openBlob(encKey, e.id, stored.subarray(e.offset, e.offset + e.length))).toHaveLength(added.get(e.id.toString('hex'))!);
    }
  });

  it('leaves an unfinished spool as a leftover that is not a pack, and discards it', async () => {
    const backend = new LocalBackend(path.join(await tempDir('spool'), 'repo'));
    const builder = new PackBuilder(() => backend.spool());
    const id = randomBytes(32);
    await builder.add(id, BlobType.Data, [randomBytes(5 * MiB)], 5 * MiB);
    await new Promise((r) => setTimeout(r, 50));
    expect(await backend.list('data/')).toEqual([]);
    const leftovers = await backend.leftovers('data/');
    expect(leftovers).toHaveLength(1);
    await builder.discard();
    expect(await backend.leftovers('data/')).toEqual([]);
  });
});

describe.each([localKind(), s3Kind()])('packs bigger than a restore span on $name', (kind) => {
  beforeAll(() => kind.setup());
  afterAll(() => kind.teardown());

  it('backs up into 12 MiB packs of small chunks, restores them span by span, and checks clean', async () => {
    const backend = await kind.make();
    await Repository.init(backend, PASSWORD, { ...TEST_INIT, packSize: 12 * MiB });
    const src = path.join(await tempDir('src'), 'data');
    await fs.mkdir(path.join(src, 'many'), { recursive: true });
    await fs.writeFile(path.join(src, 'big.bin'), randomBytes(20 * MiB));
    for (let i = 0; i < 200; i++) await fs.writeFile(path.join(src, 'many', `f${i}`), randomBytes(20_000 + i * 37));

    const repo = await Repository.open(backend, PASSWORD);
    await repo.loadIndex();
    const made = await backup(repo, walkPaths([src]), { paths: [src] });
    expect(made.stats.bytesAdded).toBeGreaterThan(24 * MiB);
    const packs = await backend.list('data/');
    expect(packs.some((p) => p.size > 8 * MiB)).toBe(true);

    const target = await tempDir('restore');
    const reopened = await Repository.open(backend, PASSWORD);
    await reopened.loadIndex();
    const result = await restore(reopened, 'latest', target);
    expect(result.failed).toEqual([]);
    expect(await describeTree(path.join(target, 'data'))).toEqual(await describeTree(src));

    const checked = await Repository.open(backend, PASSWORD);
    await checked.loadIndex();
    expect((await check(checked, { readData: true })).errors).toEqual([]);
  });
});
