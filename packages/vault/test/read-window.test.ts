// Reading a large file into one window: whatever the cutter leaves behind moves to the
// front, and every byte reaches the cutter once, in order.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { READ_SIZE, readInWindow } from '../src/source.js';
import { tempDir } from './helpers.js';

const MAX_LEFT = 3 * 1024 * 1024;

/** Reads `file` through a cutter that takes uneven pieces and leaves up to MAX_LEFT behind. */
async function cutPieces(file: string): Promise<{ bytes: Buffer; counted: number; finals: number }> {
  const window = Buffer.alloc(MAX_LEFT + 1 + READ_SIZE);
  const taken: Buffer[] = [];
  let counted = 0;
  let finals = 0;
  let turn = 0;
  const handle = await fs.open(file, 'r');
  await readInWindow(
    handle,
    window,
    async (end, final) => {
      if (final) {
        finals++;
        taken.push(Buffer.from(window.subarray(0, end)));
        return end;
      }
      // Take a varying share, but never leave more than MAX_LEFT.
      const share = [0, 1, 777_777, end][turn++ % 4]!;
      const used = Math.max(Math.min(share, end), end - MAX_LEFT);
      taken.push(Buffer.from(window.subarray(0, used)));
      return used;
    },
    (n) => (counted += n),
  ).finally(() => handle.close());
  return { bytes: Buffer.concat(taken), counted, finals };
}

describe('reading in a window', () => {
  it('hands every byte of a file of many reads to the cutter once, in order, and ends with one final call', async () => {
    const file = path.join(await tempDir('window'), 'big');
    const content = randomBytes(5 * READ_SIZE + 12_345);
    await fs.writeFile(file, content);
    const { bytes, counted, finals } = await cutPieces(file);
    expect(bytes.equals(content)).toBe(true);
    expect(counted).toBe(content.length);
    expect(finals).toBe(1);
  });

  it('reads an empty file without calling the cutter', async () => {
    const dir = await tempDir('window-empty');
    await fs.writeFile(path.join(dir, 'empty'), '');
    expect(await cutPieces(path.join(dir, 'empty'))).toEqual({ bytes: Buffer.alloc(0), counted: 0, finals: 0 });
  });
});
