import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { catalogBytes, wholeLinePieces } from './catalog.js';

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

describe('a catalog file read in pieces that end at a line', () => {
  /** Each piece as the scan sees it, copied before the next is asked for. */
  async function piecesOf(name: string): Promise<{ bytes: Buffer; at: number }[]> {
    const seen: { bytes: Buffer; at: number }[] = [];
    for await (const { bytes, at } of wholeLinePieces(name)) seen.push({ bytes: Buffer.from(bytes), at });
    return seen;
  }

  it('cuts only after a newline, says where each piece starts and loses no byte', async () => {
    const lines = Array.from(
      { length: 40_000 },
      (_, i) => `["Team/folder ${i % 97}/파일 ${i}.txt",0,${i},"2026-11-29T00:00:00.000Z",0,"${'ab'.repeat(i % 50)}"]`,
    );
    const name = path.join(dir, 'lines');
    const text = Buffer.from(`${lines.join('\n')}\n{"roots":[]}`);
    fs.writeFileSync(name, text);
    const seen = await piecesOf(name);
    expect(seen.length).toBeGreaterThan(2);
    for (const { bytes, at } of seen.slice(0, -1)) {
      expect(bytes.at(-1)).toBe(10);
      expect(bytes.equals(text.subarray(at, at + bytes.length))).toBe(true);
    }
    // The last line has no newline and still comes whole.
    expect(seen.at(-1)!.bytes.toString().endsWith('{"roots":[]}')).toBe(true);
    expect(Buffer.concat(seen.map((p) => p.bytes)).equals(text)).toBe(true);
  });

  it('gives a line longer than its buffer whole', async () => {
    const name = path.join(dir, 'long-line');
    const long = 'x'.repeat(2 * 1024 * 1024 + 7);
    fs.writeFileSync(name, `short\n${long}\nend\n`);
    const joined = Buffer.concat((await piecesOf(name)).map((p) => p.bytes)).toString();
    expect(joined).toBe(`short\n${long}\nend\n`);
    const found = (await piecesOf(name)).find((p) => p.bytes.includes(long));
    expect(found?.at).toBe(6);
  });
});
