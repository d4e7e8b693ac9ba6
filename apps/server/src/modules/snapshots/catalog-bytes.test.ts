import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogBytes } from './catalog.js';

const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'catalog-bytes-'));
const file = path.join(dir, 'catalog');
const content = randomBytes(3 * 1024 * 1024 + 517);
fs.writeFileSync(file, content);

afterAll(() => fs.rmSync(dir, { recursive: true, force: true }));

/** What a consumer that is done with each piece before the next (as a catalog copy is) gets. */
async function consumed(pieces: AsyncIterable<Buffer>): Promise<Buffer> {
  const copies: Buffer[] = [];
  for await (const piece of pieces) copies.push(Buffer.from(piece));
  return Buffer.concat(copies);
}

describe('a catalog file read in pieces', () => {
  it('gives a byte range exactly, in fresh pieces or all in one reused buffer', async () => {
    const [start, end] = [1000, 2 * 1024 * 1024 + 333];
    expect((await consumed(catalogBytes(file, start, end))).equals(content.subarray(start, end))).toBe(true);
    const into = Buffer.alloc(64 * 1024);
    const pieces: Buffer[] = [];
    const whole: Buffer[] = [];
    for await (const piece of catalogBytes(file, start, end, into)) {
      expect(piece.buffer).toBe(into.buffer);
      pieces.push(piece);
      whole.push(Buffer.from(piece));
    }
    expect(pieces.length).toBe(Math.ceil((end - start) / into.length));
    expect(Buffer.concat(whole).equals(content.subarray(start, end))).toBe(true);
    expect((await consumed(catalogBytes(file, 0, Infinity, into))).equals(content)).toBe(true);
  });

  it('fails when the file ends before the range does', async () => {
    await expect(consumed(catalogBytes(file, content.length - 10, content.length + 10, Buffer.alloc(4096)))).rejects.toThrow('shorter');
  });
});
