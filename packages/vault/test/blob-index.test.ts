import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { BlobIndex, BlobType } from '../src/blob-index.js';

describe('blob index', () => {
  it('finds every blob across segments, keeps the first location of an id and lists packs once', () => {
    const index = new BlobIndex();
    const packs = [randomBytes(32), randomBytes(32), randomBytes(32)];
    const count = 150_000; // three segments, the last one partly filled
    const ids = randomBytes(count * 32);
    for (let n = 0; n < count; n++) {
      const added = index.addAt(ids, n * 32, Buffer.from(packs[n % 3]!), n % 7 === 0 ? BlobType.Tree : BlobType.Data, n * 10, n + 1, n + 2);
      expect(added).toBe(true);
    }
    expect(index.size).toBe(count);
    expect(index.packs().map((p) => p.toString('hex'))).toEqual(packs.map((p) => p.toString('hex')));
    for (const n of [0, 1, 1023, 1024, 65_535, 65_536, 131_072, count - 1]) {
      const id = ids.subarray(n * 32, n * 32 + 32);
      const found = index.find(id);
      expect(found).toBe(n);
      expect(index.idAt(found).equals(id)).toBe(true);
      expect(index.get(id)).toEqual({ type: n % 7 === 0 ? BlobType.Tree : BlobType.Data, pack: packs[n % 3], offset: n * 10, length: n + 1, rawLength: n + 2 });
      expect([index.offsetAt(found), index.lengthAt(found), index.rawLengthAt(found), index.packNumberAt(found)]).toEqual([n * 10, n + 1, n + 2, n % 3]);
    }
    for (let n = 0; n < count; n += 97) expect(index.has(ids.subarray(n * 32, n * 32 + 32))).toBe(true);
    expect(index.has(randomBytes(32))).toBe(false);
    expect(index.get(randomBytes(32))).toBeNull();
    // A second location for a known id changes nothing.
    expect(index.add(ids.subarray(32, 64), { type: BlobType.Data, pack: packs[2]!, offset: 1, length: 1, rawLength: 1 })).toBe(false);
    expect(index.get(ids.subarray(32, 64))!.offset).toBe(10);
  });

  it('keeps working when room was reserved ahead and then outgrown', () => {
    const index = new BlobIndex(16);
    index.reserve(5_000);
    const pack = randomBytes(32);
    const ids = Array.from({ length: 20_000 }, () => randomBytes(32));
    ids.forEach((id, n) => index.add(id, { type: BlobType.Data, pack, offset: n, length: 1, rawLength: 1 }));
    ids.forEach((id, n) => expect(index.find(id)).toBe(n));
  });
});
