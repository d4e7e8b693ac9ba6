// A pack of tiny blobs ends at a count as well as at its size, so that what waits for a
// pack's upload (and what its upload makes per blob) stays bounded.
import { randomBytes } from 'node:crypto';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { BlobType } from '../src/blob-index.js';
import { CryptoPool } from '../src/pool.js';
import { Repository } from '../src/repository.js';
import { BlobWriter, PACK_BLOBS } from '../src/writer.js';
import { tempDir, TEST_INIT } from './helpers.js';

describe('packs of tiny blobs', () => {
  it(`end at ${PACK_BLOBS} blobs, and every blob is found again after a reload`, async () => {
    const backend = new LocalBackend(path.join(await tempDir('pack-blobs'), 'repo'));
    // Packs large enough that size alone would put every blob below into one.
    await Repository.init(backend, 'pw', { ...TEST_INIT, packSize: 64 * 1024 * 1024 });
    const repo = await Repository.open(backend, 'pw');
    await repo.loadIndex();
    const pool = new CryptoPool(repo.key.encKey, 1, repo.key.macKey);
    const writer = new BlobWriter(repo, pool);
    const count = 2 * PACK_BLOBS + 100;
    const ids: Buffer[] = [];
    try {
      for (let i = 0; i < count; i++) {
        const data = randomBytes(40);
        const id = repo.id(data);
        ids.push(id);
        await writer.add(id, BlobType.Data, data);
      }
      await writer.checkpointIndex();
    } finally {
      await pool.close();
    }
    const packs = await backend.list('data/');
    expect(packs).toHaveLength(3);
    const reopened = await Repository.open(backend, 'pw');
    await reopened.loadIndex();
    const perPack = new Map<string, number>();
    for (const id of ids) {
      const at = reopened.index.get(id);
      expect(at).not.toBeNull();
      const pack = at!.pack.toString('hex');
      perPack.set(pack, (perPack.get(pack) ?? 0) + 1);
    }
    expect([...perPack.values()].sort((a, b) => a - b)).toEqual([100, PACK_BLOBS, PACK_BLOBS]);
    // A blob reads back as it was written.
    expect((await reopened.readBlob(ids[PACK_BLOBS + 7]!)).length).toBe(40);
  });
});
