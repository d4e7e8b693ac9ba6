// Restoring chunks larger than the native codec's 1 MiB piece: a compressed blob is
// decompressed and written piece by piece (native/restore-span.c), zeros left as holes,
// new one-chunk files created, sized and stamped once their last piece is written.
import { createCipheriv, createHash } from 'node:crypto';
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { LocalBackend } from '../src/backend/local.js';
import { backup } from '../src/backup.js';
import { nativeCodec } from '../src/native.js';
import { Repository } from '../src/repository.js';
import { restore } from '../src/restore.js';
import { walkPaths } from '../src/source.js';
import { describeTree, restoreOverWrongZeros, tempDir } from './helpers.js';

function random(label: string, length: number): Buffer {
  const key = createHash('sha256').update(label).digest();
  return createCipheriv('aes-128-ctr', key.subarray(0, 16), key.subarray(16, 32)).update(Buffer.alloc(length));
}

function text(length: number): Buffer {
  const line = Buffer.from('the restore writes each piece where it belongs, 보관\n');
  return Buffer.alloc(length, line);
}

const MiB = 1024 * 1024;

describe.skipIf(!nativeCodec() && !process.env.CI)('restore of chunks larger than a piece', () => {
  it('writes multi-piece compressed chunks, one-chunk files and zeros exactly, holes kept', async () => {
    const dir = await tempDir('pieces');
    const src = path.join(dir, 'src');
    await fs.mkdir(src);
    // Chunks of 2–8 MiB, so blobs span several 1 MiB pieces.
    const image = Buffer.concat([Buffer.alloc(3 * MiB), text(2 * MiB + 5), random('image', MiB), Buffer.alloc(3 * MiB), text(3 * MiB)]);
    await fs.writeFile(path.join(src, 'disk.img'), image);
    // One chunk each (below the 2 MiB minimum): written whole when its blob arrives.
    await fs.writeFile(path.join(src, 'notes.txt'), text(MiB + 12345));
    await fs.writeFile(path.join(src, 'notes copy.txt'), text(MiB + 12345));
    await fs.writeFile(path.join(src, 'empty.img'), Buffer.alloc(1900 * 1024));
    await fs.writeFile(path.join(src, 'ends in zeros.bin'), Buffer.concat([text(300 * 1024), Buffer.alloc(1500 * 1024)]));

    const backend = new LocalBackend(path.join(dir, 'repo'));
    await Repository.init(backend, 'p', { kdf: { N: 1024, r: 8, p: 1 }, chunker: { min: 2 * MiB, avg: 4 * MiB, max: 8 * MiB }, packSize: 16 * MiB });
    const repo = await Repository.open(backend, 'p');
    await repo.loadIndex();
    const stored = await backup(repo, walkPaths([src]), { paths: [src] });
    // Compressed: the pieces path is the one taken.
    expect(stored.stats.bytesStored).toBeLessThan(3 * MiB);

    const target = path.join(dir, 'restored');
    const result = await restore(repo, 'latest', target);
    expect(result.failed).toEqual([]);
    expect(await describeTree(path.join(target, 'src'))).toEqual(await describeTree(src));
    // Zeros are holes: the all-zero one-chunk file takes (almost) no blocks.
    const empty = await fs.stat(path.join(target, 'src', 'empty.img'));
    expect(empty.size).toBe(1900 * 1024);
    expect(empty.blocks * 512).toBeLessThan(64 * 1024);
    const tail = await fs.stat(path.join(target, 'src', 'ends in zeros.bin'));
    expect(tail.size).toBe(1800 * 1024);
    // Its first piece (text, then zeros) is written; the second, all zeros, is a hole.
    expect(tail.blocks * 512).toBeLessThanOrEqual(MiB + 64 * 1024);
  });
});

describe.skipIf(!nativeCodec() && !process.env.CI)('restore over an existing file (native codec)', () => {
  it('writes zeros over wrong bytes instead of leaving them as holes', async () => {
    expect(await restoreOverWrongZeros('zeros-native')).toEqual({ same: true, failed: [] });
  });
});
