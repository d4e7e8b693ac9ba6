// The file readers hand back exactly the bytes on disk (one-chunk files as their blob id
// and sealed blob), and each file's own error, whatever happened to the file since it was
// walked: through the native codec and through reader threads alike.
import { randomBytes } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { openBlob } from '../src/codec.js';
import { FileReaders, type WholeFile } from '../src/file-readers.js';
import { blobId } from '../src/keys.js';
import { type NativeCodec, nativeCodec } from '../src/native.js';
import { tempDir } from './helpers.js';

const idKey = randomBytes(32);
const encKey = randomBytes(32);
let readers: FileReaders | undefined;

/** The file's bytes as read, opened from the sealed blob where the reader sealed them. */
function bytesOf(read: WholeFile): Buffer {
  return 'id' in read ? openBlob(encKey, read.id, read.sealed) : Buffer.from(read.bytes);
}

/** The blob id the reader gave, if it sealed the file. */
function idOf(read: WholeFile): Buffer | undefined {
  return 'id' in read ? read.id : undefined;
}

afterEach(async () => {
  await readers?.close();
  readers = undefined;
});

// Where the codec was not built (no compiler), the engine reads on threads; CI must have it.
const native = nativeCodec();
const ways: [string, NativeCodec | null][] = [
  ['the native codec', native],
  ['reader threads', null],
];

describe.each(ways)('file readers through %s', (way, codec) => {
  const skip = way === 'the native codec' && !codec && !process.env.CI;

  it.skipIf(skip)(
    'read many files in batches over several threads: the bytes of each or, up to the limit, its blob id and its blob sealed under that id',
    async () => {
      const dir = await tempDir('readers');
      const files: { file: string; bytes: Buffer }[] = [];
      for (let i = 0; i < 60; i++) {
        const length = 1 + ((i * 977) % 5000);
        // Half random, half text (which the reader compresses before it seals).
        const bytes = i % 2 ? randomBytes(length) : Buffer.from('보관 backup text '.repeat(300)).subarray(0, length);
        const file = path.join(dir, `파일 ${i}`);
        await fs.writeFile(file, bytes);
        files.push({ file, bytes });
      }
      readers = new FileReaders(idKey, encKey, 3000, 3, codec);
      const got = await Promise.all(files.map(({ file, bytes }) => readers!.read(file, bytes.length)));
      got.forEach((read, i) => {
        const { bytes } = files[i]!;
        expect(bytesOf(read).equals(bytes)).toBe(true);
        if (bytes.length <= 3000) {
          expect(idOf(read)?.equals(blobId(idKey, bytes))).toBe(true);
          // Sealed under that id: the blob does not open under another one.
          expect(() => openBlob(encKey, randomBytes(32), (read as { sealed: Buffer }).sealed)).toThrow();
        } else expect(idOf(read)).toBeUndefined();
      });
    },
  );

  it.skipIf(skip)('read a file as it is now when it grew or shrank since it was walked, and fail only the file that is gone', async () => {
    const dir = await tempDir('readers-changed');
    const grown = randomBytes(3 * 1024 * 1024 + 7);
    const shrunk = randomBytes(10);
    const same = randomBytes(100);
    await fs.writeFile(path.join(dir, 'grown'), grown);
    await fs.writeFile(path.join(dir, 'shrunk'), shrunk);
    await fs.writeFile(path.join(dir, 'same'), same);
    readers = new FileReaders(idKey, encKey, 1024, 1, codec);
    const [a, b, c, d] = await Promise.allSettled([
      readers.read(path.join(dir, 'grown'), 20),
      readers.read(path.join(dir, 'gone'), 20),
      readers.read(path.join(dir, 'shrunk'), 500),
      readers.read(path.join(dir, 'same'), 100),
    ]);
    expect(a.status === 'fulfilled' && bytesOf(a.value).equals(grown)).toBe(true);
    expect(a.status === 'fulfilled' && idOf(a.value)).toBeUndefined();
    expect(b).toMatchObject({ status: 'rejected', reason: { code: 'ENOENT' } });
    expect(c.status === 'fulfilled' && bytesOf(c.value).equals(shrunk)).toBe(true);
    expect(c.status === 'fulfilled' && idOf(c.value)?.equals(blobId(idKey, shrunk))).toBe(true);
    expect(d.status === 'fulfilled' && bytesOf(d.value).equals(same)).toBe(true);
    expect(d.status === 'fulfilled' && idOf(d.value)?.equals(blobId(idKey, same))).toBe(true);
  });

  it.skipIf(skip)('refuse reads once closed, and fail the reads still waiting', async () => {
    const dir = await tempDir('readers-closed');
    await fs.writeFile(path.join(dir, 'f'), 'x');
    readers = new FileReaders(idKey, encKey, 1024, 1, codec);
    const waiting = readers.read(path.join(dir, 'f'), 1);
    await readers.close();
    await expect(waiting).rejects.toThrow('file readers closed');
    await expect(readers.read(path.join(dir, 'f'), 1)).rejects.toThrow('file readers closed');
  });
});

describe('file readers on reader threads', () => {
  it('fail every read, waiting or new, once a reader thread has stopped, instead of waiting forever', async () => {
    const dir = await tempDir('readers-stopped');
    await fs.writeFile(path.join(dir, 'f'), 'x');
    readers = new FileReaders(idKey, encKey, 1024, 1, null);
    await readers.read(path.join(dir, 'f'), 1);
    // The thread is stopped from outside, as a crash would stop it.
    const lanes = (readers as unknown as { lanes: { worker: { terminate(): Promise<number> } }[] }).lanes;
    await lanes[0]!.worker.terminate();
    await new Promise((resolve) => setImmediate(resolve));
    await expect(readers.read(path.join(dir, 'f'), 1)).rejects.toThrow('a reader thread stopped');
  });
});
