import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type HashedChunk, RunningHashes } from './running-hash.js';

const chunks = [Buffer.from('first chunk '), Buffer.from('second chunk '), Buffer.from('third')];
const whole = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
const records = (tokens = ['a', 'b', 'c']): HashedChunk[] => chunks.map((c, idx) => ({ idx, size: c.length, token: tokens[idx]! }));
const reader = (reads: number[]) => async (chunk: HashedChunk, visit: (piece: Buffer) => void) => {
  reads.push(chunk.idx);
  visit(chunks[chunk.idx]!);
  return chunks[chunk.idx]!.length;
};

/** Writes chunk `i` as the upload service does: begin, bytes through the tap, end. */
function write(hashes: RunningHashes, i: number, token: string | undefined = records()[i]!.token) {
  const tap = hashes.begin('u', i);
  tap?.(chunks[i]!);
  hashes.end('u', i, token);
  return tap !== undefined;
}

describe('RunningHashes', () => {
  it('hashes chunks that arrive in order as they stream, with no read back', async () => {
    const hashes = new RunningHashes();
    expect([0, 1, 2].map((i) => write(hashes, i))).toEqual([true, true, true]);
    const reads: number[] = [];
    expect(await hashes.take('u', records(), reader(reads))).toEqual({ hash: whole, length: Buffer.concat(chunks).length });
    expect(reads).toEqual([]);
    expect(hashes.size).toBe(0);
  });

  it('reads back early chunks once the gap before them is filled', async () => {
    const hashes = new RunningHashes();
    const reads: number[] = [];
    expect(write(hashes, 2)).toBe(false);
    expect(write(hashes, 1)).toBe(false);
    await hashes.catchUp('u', [records()[1]!, records()[2]!], reader(reads));
    expect(reads).toEqual([]);
    expect(write(hashes, 0)).toBe(true);
    await hashes.catchUp('u', records(), reader(reads));
    expect(reads).toEqual([1, 2]);
    expect((await hashes.take('u', records(), reader(reads)))?.hash).toBe(whole);
  });

  it('after a restart (nothing in memory) the completion reads every chunk back and still agrees', async () => {
    const hashes = new RunningHashes();
    const reads: number[] = [];
    expect(await hashes.take('u', records(), reader(reads))).toBeUndefined();
    write(hashes, 2);
    expect((await hashes.take('u', records(), reader(reads)))?.hash).toBe(whole);
    expect(reads).toEqual([0, 1, 2]);
  });

  it('gives up when a hashed chunk is written again, a write fails mid-way, or a record changed', async () => {
    const rewritten = new RunningHashes();
    write(rewritten, 0);
    write(rewritten, 0, 'a2');
    write(rewritten, 1);
    write(rewritten, 2);
    expect(await rewritten.take('u', records(['a2', 'b', 'c']), reader([]))).toBeUndefined();

    const failed = new RunningHashes();
    write(failed, 0, undefined);
    write(failed, 0);
    write(failed, 1);
    write(failed, 2);
    expect(await failed.take('u', records(), reader([]))).toBeUndefined();

    // Chunk 1 was written again elsewhere (another process): its claimed token differs.
    const elsewhere = new RunningHashes();
    [0, 1, 2].forEach((i) => write(elsewhere, i));
    expect(await elsewhere.take('u', records(['a', 'other', 'c']), reader([]))).toBeUndefined();

    // Two writes of one chunk at once.
    const twice = new RunningHashes();
    const tap = twice.begin('u', 0);
    expect(twice.begin('u', 0)).toBeUndefined();
    tap?.(chunks[0]!);
    twice.end('u', 0, 'a');
    twice.end('u', 0, 'a');
    write(twice, 1);
    write(twice, 2);
    expect(await twice.take('u', records(), reader([]))).toBeUndefined();
  });

  it('a chunk that reads back short breaks the hash instead of answering a wrong one', async () => {
    const hashes = new RunningHashes();
    write(hashes, 1);
    write(hashes, 2);
    write(hashes, 0, undefined);
    const short = async (_chunk: HashedChunk, visit: (piece: Buffer) => void) => {
      visit(Buffer.from('x'));
      return 1;
    };
    expect(await hashes.take('u', records(), short)).toBeUndefined();
  });
});
