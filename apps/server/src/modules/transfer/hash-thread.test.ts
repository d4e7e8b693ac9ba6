import { createHash, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { HashThread } from './hash-thread.js';
import type { HashedChunk } from './running-hash.js';

// Chunks larger than the thread's 1 MiB read buffer, and a short last one.
const CHUNK = 1_500_000;
const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-hash-thread-'));
const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');
const chunksOf = (size: number): HashedChunk[] =>
  Array.from({ length: Math.ceil(size / CHUNK) }, (_, idx) => ({ idx, size: Math.min(CHUNK, size - idx * CHUNK), token: `t${idx}` }));
const at = (chunk: HashedChunk) => chunk.idx * CHUNK;

function staged(name: string, size: number): { file: string; bytes: Buffer } {
  const bytes = randomBytes(size);
  const file = path.join(dir, name);
  fs.writeFileSync(file, bytes);
  return { file, bytes };
}

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

describe('HashThread', () => {
  it('hashes staged chunks read on its own thread, several uploads interleaved', async () => {
    const thread = new HashThread();
    try {
      const a = staged('a', 4_200_000);
      const b = staged('b', 2 * CHUNK);
      const da = thread.digest(a.file, at);
      const db = thread.digest(b.file, at);
      const [ca, cb] = [chunksOf(a.bytes.length), chunksOf(b.bytes.length)];
      for (let i = 0; i < Math.max(ca.length, cb.length); i++) {
        if (ca[i]) expect(await da.add(ca[i]!)).toBe(ca[i]!.size);
        if (cb[i]) expect(await db.add(cb[i]!)).toBe(cb[i]!.size);
      }
      expect(await da.finish()).toBe(sha256(a.bytes));
      expect(await db.finish()).toBe(sha256(b.bytes));
      await expect(da.finish()).rejects.toThrow('spent');
    } finally {
      await thread.close();
    }
  });

  it('answers how many bytes a chunk really had, and fails for a file that is gone', async () => {
    const thread = new HashThread();
    try {
      const short = staged('short', CHUNK + 10);
      const digest = thread.digest(short.file, at);
      expect(await digest.add({ idx: 0, size: CHUNK, token: 'x' })).toBe(CHUNK);
      expect(await digest.add({ idx: 1, size: CHUNK, token: 'y' })).toBe(10);
      const gone = thread.digest(path.join(dir, 'never-written'), at);
      await expect(gone.add({ idx: 0, size: 10, token: 'z' })).rejects.toThrow(/ENOENT/);
    } finally {
      await thread.close();
    }
  });

  it('a digest begun on a thread that stopped fails; the next digest gets a new thread', async () => {
    const thread = new HashThread();
    const { file, bytes } = staged('restart', CHUNK);
    const before = thread.digest(file, at);
    await before.add(chunksOf(bytes.length)[0]!);
    await thread.close();
    await expect(before.finish()).rejects.toThrow('restarted');
    const after = thread.digest(file, at);
    try {
      await after.add(chunksOf(bytes.length)[0]!);
      expect(await after.finish()).toBe(sha256(bytes));
    } finally {
      await thread.close();
    }
  });
});
