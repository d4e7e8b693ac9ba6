// The native codec must be byte-compatible with codec.ts: what one seals the other opens,
// ids agree, and damage is found and worded the same way, so a repository never depends
// on which of the two wrote it.
import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { blobId } from '../src/blob-id.js';
import { openBlob, sealBlob } from '../src/codec.js';
import { verifySpan } from '../src/pack-tasks.js';
import { nativeCodec } from '../src/native.js';

const codec = nativeCodec();
const encKey = randomBytes(32);
const macKey = randomBytes(32);

// Empty, tiny, compressible, random, large with a random middle (the sample says skip) and
// large with a compressible middle.
const samples: [string, Buffer][] = [
  ['empty', Buffer.alloc(0)],
  ['five bytes', Buffer.from('hello')],
  ['compressible text', Buffer.from('보관 backup line\n'.repeat(5000))],
  ['random', randomBytes(70_000)],
  ['large random', randomBytes(1024 * 1024 + 17)],
  ['large, compressible middle', Buffer.concat([randomBytes(300_000), Buffer.alloc(600_000, 0x41), randomBytes(300_000)])],
];

function layout(blobs: { from: number; length: number }[]): Uint32Array {
  return Uint32Array.from(blobs.flatMap((b) => [b.from, b.length]));
}

// Where it was not built (no compiler), the engine works on threads; CI must have it.
describe.skipIf(!codec && !process.env.CI)('native codec', () => {
  it.each(samples)('ids, seals and opens %s exactly as codec.ts does', async (_name, data) => {
    const id = await codec!.hash(macKey, data);
    expect(id.equals(blobId(macKey, data))).toBe(true);
    const sealed = await codec!.seal(encKey, id, data, true);
    expect(openBlob(encKey, id, sealed).equals(data)).toBe(true);
    // The same size as codec.ts's (the same compression decision and level).
    expect(sealed.length).toBe(sealBlob(encKey, id, data).length);
    // Not compressed when asked not to: the payload is the bytes themselves.
    expect((await codec!.seal(encKey, id, data, false)).length).toBe(data.length + 29);
    // Bound to its id: it does not open under another.
    expect(() => openBlob(encKey, randomBytes(32), sealed)).toThrow('blob failed authentication');
  });

  it('verifies a span sealed by codec.ts and by itself, and names each damaged blob as check does on threads', async () => {
    const blobs = await Promise.all(
      samples.map(async ([, data], i) => {
        const id = blobId(macKey, data);
        return { id, sealed: i % 2 ? sealBlob(encKey, id, data) : await codec!.seal(encKey, id, data, true) };
      }),
    );
    let from = 0;
    const placed = blobs.map((b) => {
      const at = { id: b.id, from, length: b.sealed.length };
      from += b.sealed.length;
      return at;
    });
    const span = Buffer.concat(blobs.map((b) => b.sealed));
    const ids = Buffer.concat(blobs.map((b) => b.id));
    expect(await codec!.verifySpan(encKey, macKey, span, ids, layout(placed))).toEqual([]);

    // A flipped byte in blob 2, blob 4 claimed under blob 5's id, blob 1 cut short.
    const damaged = Buffer.from(span);
    damaged[placed[2]!.from + 20]! ^= 1;
    const claimed = placed.map((p, i) => (i === 4 ? { ...p, id: placed[5]!.id } : i === 1 ? { ...p, length: 10 } : p));
    const claimedIds = Buffer.concat(claimed.map((p) => p.id));
    const found = await codec!.verifySpan(encKey, macKey, damaged, claimedIds, layout(claimed));
    const onThreads = verifySpan(encKey, macKey, { kind: 'verify-span', span: damaged, blobs: claimed });
    expect(found.map(([i, reason]) => [claimed[i]!.id.toString('hex'), reason])).toEqual(onThreads);
    expect(found.map(([i]) => i)).toEqual([1, 2, 4]);
    expect(found[0]![1]).toBe('blob too short');
    expect(found[1]![1]).toBe('blob failed authentication');
  });

  it('refuses a blob that decrypts but whose content is not what its id says', async () => {
    const data = Buffer.from('the real content');
    const wrongId = blobId(macKey, Buffer.from('other content'));
    // Sealed under the wrong id (a writer bug, or a forged index): it opens, the hash disagrees.
    const sealed = sealBlob(encKey, wrongId, data);
    const found = await codec!.verifySpan(encKey, macKey, sealed, wrongId, layout([{ from: 0, length: sealed.length }]));
    expect(found).toEqual([[0, 'content does not match its id']]);
  });

  it('refuses a blob said to lie past the end of its span', async () => {
    const found = await codec!.verifySpan(encKey, macKey, randomBytes(100), randomBytes(32), layout([{ from: 90, length: 40 }]));
    expect(found).toEqual([[0, 'blob lies outside its span']]);
  });

  it('refuses bad arguments with a clear error instead of crashing', async () => {
    await expect(codec!.hash(randomBytes(16), Buffer.alloc(1))).rejects.toThrow('hash(macKey, data)');
    await expect(codec!.seal(encKey, randomBytes(32), 'text' as unknown as Buffer, true)).rejects.toThrow('seal(encKey, id, data, compress)');
    await expect(codec!.verifySpan(encKey, macKey, Buffer.alloc(10), Buffer.alloc(31), new Uint32Array([0, 10]))).rejects.toThrow('verifySpan');
    await expect(codec!.readFiles(encKey, macKey, ['a'], [], 10)).rejects.toThrow('readFiles');
  });
});
