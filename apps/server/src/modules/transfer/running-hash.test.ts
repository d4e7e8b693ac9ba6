import { createHash } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { type ChunkReader, type Digest, type HashedChunk, inProcessDigest, RunningHashes } from './running-hash.js';

const chunks = [Buffer.from('first chunk '), Buffer.from('second chunk '), Buffer.from('third')];
const whole = createHash('sha256').update(Buffer.concat(chunks)).digest('hex');
const records = (tokens = ['a', 'b', 'c']): HashedChunk[] => chunks.map((c, idx) => ({ idx, size: c.length, token: tokens[idx]! }));
const reader =
  (reads: number[]): ChunkReader =>
  async (chunk, visit) => {
    reads.push(chunk.idx);
    visit(chunks[chunk.idx]!);
    return chunks[chunk.idx]!.length;
  };

/** Running hashes whose digests are made by `digest`, and a writer of chunk `i` as the upload service does it. */
function setup(digest: () => Digest = () => inProcessDigest(reader([]))) {
  const hashes = new RunningHashes();
  /** Writes chunk `i`: begin, bytes through the tap (if any), end. */
  const write = (i: number, token: string | undefined = records()[i]!.token) => {
    const tap = hashes.begin('u', i, digest);
    tap?.(chunks[i]!);
    hashes.end('u', i, token);
    return tap !== undefined;
  };
  return { hashes, write };
}

describe('RunningHashes', () => {
  it('hashes chunks that arrive in order as they stream, with no read back', async () => {
    const reads: number[] = [];
    const { hashes, write } = setup(() => inProcessDigest(reader(reads)));
    expect([0, 1, 2].map((i) => write(i))).toEqual([true, true, true]);
    expect(await hashes.take('u', records())).toEqual({ hash: whole, length: Buffer.concat(chunks).length });
    expect(reads).toEqual([]);
    expect(hashes.size).toBe(0);
  });

  it('reads back early chunks once the gap before them is filled', async () => {
    const reads: number[] = [];
    const { hashes, write } = setup(() => inProcessDigest(reader(reads)));
    expect(write(2)).toBe(false);
    expect(write(1)).toBe(false);
    await hashes.catchUp('u', [records()[1]!, records()[2]!]);
    expect(reads).toEqual([]);
    expect(write(0)).toBe(true);
    await hashes.catchUp('u', records());
    expect(reads).toEqual([1, 2]);
    expect((await hashes.take('u', records()))?.hash).toBe(whole);
  });

  it('with a digest that reads chunks itself, every chunk is added in order and nothing is tapped', async () => {
    const added: number[] = [];
    const hash = createHash('sha256');
    const digest: Digest = {
      add: async (chunk) => {
        added.push(chunk.idx);
        hash.update(chunks[chunk.idx]!);
        return chunks[chunk.idx]!.length;
      },
      finish: async () => hash.digest('hex'),
      drop: () => {},
    };
    const { hashes, write } = setup(() => digest);
    expect([1, 0].map((i) => write(i))).toEqual([false, false]);
    await hashes.catchUp('u', records().slice(0, 2));
    expect(added).toEqual([0, 1]);
    expect(write(2)).toBe(false);
    expect(await hashes.take('u', records())).toEqual({ hash: whole, length: Buffer.concat(chunks).length });
    expect(added).toEqual([0, 1, 2]);
  });

  it('after a restart (nothing in memory) the completion reads every chunk back and still agrees', async () => {
    const reads: number[] = [];
    const { hashes, write } = setup(() => inProcessDigest(reader(reads)));
    expect(await hashes.take('u', records())).toBeUndefined();
    write(2);
    expect((await hashes.take('u', records()))?.hash).toBe(whole);
    expect(reads).toEqual([0, 1, 2]);
  });

  it('gives up when a hashed chunk is written again, a write fails mid-way, or a record changed', async () => {
    const rewritten = setup();
    rewritten.write(0);
    rewritten.write(0, 'a2');
    rewritten.write(1);
    rewritten.write(2);
    expect(await rewritten.hashes.take('u', records(['a2', 'b', 'c']))).toBeUndefined();

    const failed = setup();
    failed.write(0, undefined);
    failed.write(0);
    failed.write(1);
    failed.write(2);
    expect(await failed.hashes.take('u', records())).toBeUndefined();

    // Chunk 1 was written again elsewhere (another process): its claimed token differs.
    const elsewhere = setup();
    [0, 1, 2].forEach((i) => elsewhere.write(i));
    expect(await elsewhere.hashes.take('u', records(['a', 'other', 'c']))).toBeUndefined();

    // Two writes of one chunk at once.
    const twice = setup();
    const digest = () => inProcessDigest(reader([]));
    const tap = twice.hashes.begin('u', 0, digest);
    expect(twice.hashes.begin('u', 0, digest)).toBeUndefined();
    tap?.(chunks[0]!);
    twice.hashes.end('u', 0, 'a');
    twice.hashes.end('u', 0, 'a');
    twice.write(1);
    twice.write(2);
    expect(await twice.hashes.take('u', records())).toBeUndefined();
  });

  it('a chunk that reads back short breaks the hash instead of answering a wrong one', async () => {
    const short: ChunkReader = async (_chunk, visit) => {
      visit(Buffer.from('x'));
      return 1;
    };
    const { hashes, write } = setup(() => inProcessDigest(short));
    write(1);
    write(2);
    write(0, undefined);
    expect(await hashes.take('u', records())).toBeUndefined();
  });

  it('a digest lost on the way (its thread gone) answers no hash, and every unused digest is dropped', async () => {
    const dropped: string[] = [];
    const lost = (name: string): Digest => ({
      add: async (chunk) => chunks[chunk.idx]!.length,
      finish: () => Promise.reject(new Error('hash thread restarted')),
      drop: () => dropped.push(name),
    });
    const first = setup(() => lost('first'));
    [0, 1, 2].forEach((i) => first.write(i));
    expect(await first.hashes.take('u', records())).toBeUndefined();

    const forgotten = setup(() => lost('forgotten'));
    forgotten.write(0);
    forgotten.hashes.forget('u');
    expect(forgotten.hashes.size).toBe(0);

    const broken = setup(() => lost('broken'));
    broken.write(0, undefined);
    expect(await broken.hashes.take('u', records())).toBeUndefined();
    expect(dropped).toEqual(['first', 'forgotten', 'broken']);
  });
});
