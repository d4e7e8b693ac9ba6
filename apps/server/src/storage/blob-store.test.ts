import { createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startS3, type TestS3 } from '../../test/s3.js';
import { BlobMissingError, type BlobStore, blobKeyOf } from './blob-store.js';
import { LocalBlobStore } from './local-blob-store.js';
import { S3BlobStore } from './s3-blob-store.js';

const MiB = 1024 * 1024;

setFlagsFromString('--expose-gc');
const collectGarbage = runInNewContext('gc') as () => void;

/** `size` deterministic bytes, produced 1 MiB at a time (never held whole). */
function generated(size: number, seed = 'seed'): Readable {
  async function* bytes() {
    let block = createHash('sha256').update(seed).digest();
    for (let sent = 0; sent < size;) {
      const piece = Buffer.alloc(Math.min(MiB, size - sent));
      for (let i = 0; i < piece.length; i += 32) {
        block = createHash('sha256').update(block).digest();
        block.copy(piece, i);
      }
      sent += piece.length;
      yield piece;
    }
  }
  return Readable.from(bytes());
}

async function text(stream: Readable): Promise<string> {
  const parts: Buffer[] = [];
  for await (const piece of stream) parts.push(piece as Buffer);
  return Buffer.concat(parts).toString();
}

async function sha256(stream: Readable): Promise<{ hash: string; size: number }> {
  const hash = createHash('sha256');
  let size = 0;
  for await (const piece of stream) {
    hash.update(piece as Buffer);
    size += (piece as Buffer).length;
  }
  return { hash: hash.digest('hex'), size };
}

/** A stream that sends some bytes and then fails, like a dropped connection. */
function failing(): Readable {
  async function* bytes() {
    yield Buffer.alloc(64 * 1024, 1);
    await new Promise((r) => setTimeout(r, 5));
    throw new Error('connection reset');
  }
  return Readable.from(bytes());
}

async function keys(store: BlobStore, prefix = ''): Promise<string[]> {
  const found: string[] = [];
  for await (const blob of store.list(prefix)) found.push(blob.key);
  return found.sort();
}

const HASH = 'ab'.repeat(32);

interface Driver {
  name: string;
  open: () => Promise<BlobStore>;
}

let s3: TestS3;
const localDirs: string[] = [];

const drivers: Driver[] = [
  {
    name: 'local directory',
    open: async () => {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-blobs-'));
      localDirs.push(dir);
      return new LocalBlobStore(dir);
    },
  },
  { name: 'S3 (s3rver)', open: async () => new S3BlobStore(s3.client, await s3.bucket()) },
];

beforeAll(async () => {
  s3 = await startS3();
});
afterAll(async () => {
  await s3?.close();
  for (const dir of localDirs) fs.rmSync(dir, { recursive: true, force: true });
});

describe.each(drivers)('BlobStore: $name', ({ open }) => {
  let store: BlobStore;
  beforeAll(async () => {
    store = await open();
  });

  it('puts, gets, stats, lists and deletes', async () => {
    const key = blobKeyOf(HASH);
    expect(key).toBe(`ab/ab/${HASH}`);
    expect(await store.put(key, Readable.from([Buffer.from('hello '), Buffer.from('보관')]))).toEqual({ size: 12 });
    expect(await text(await store.get(key))).toBe('hello 보관');
    expect(await store.stat(key)).toEqual({ size: 12 });
    expect(await keys(store)).toEqual([key]);
    expect(await keys(store, 'ab/')).toEqual([key]);
    expect(await keys(store, 'cd/')).toEqual([]);
    await store.delete(key);
    expect(await store.stat(key)).toBeNull();
    await store.delete(key);
    await expect(store.get(key)).rejects.toBeInstanceOf(BlobMissingError);
    expect(await store.healthy()).toBe(true);
  });

  it('reads byte ranges, both ends included', async () => {
    const key = 'range/test';
    await store.put(key, Readable.from([Buffer.from('0123456789')]));
    expect(await text(await store.get(key, { start: 2, end: 5 }))).toBe('2345');
    expect(await text(await store.get(key, { start: 9, end: 9 }))).toBe('9');
    expect(await text(await store.get(key, { start: 0, end: 9 }))).toBe('0123456789');
    await store.delete(key);
  });

  it('stores an empty blob', async () => {
    await store.put('empty/blob', Readable.from([]));
    expect(await store.stat('empty/blob')).toEqual({ size: 0 });
    expect(await text(await store.get('empty/blob'))).toBe('');
    await store.delete('empty/blob');
  });

  it('leaves nothing under the key when the stream fails', async () => {
    await expect(store.put('atomic/blob', failing())).rejects.toThrow('connection reset');
    expect(await store.stat('atomic/blob')).toBeNull();
    expect(await keys(store, 'atomic/')).toEqual([]);
    if (store instanceof LocalBlobStore) expect(fs.readdirSync(path.join(store.root, 'tmp'))).toEqual([]);
  });

  it('refuses keys that could leave the store', async () => {
    for (const key of ['../x', 'a/../../x', '/abs', 'a\\b', '', 'a//b']) {
      await expect(store.put(key, Readable.from([]))).rejects.toThrow('invalid blob key');
    }
  });

  it('streams a 25 MiB object in and out without holding it', async () => {
    const size = 25 * MiB;
    const expected = await sha256(generated(size));
    const before = process.memoryUsage().arrayBuffers;
    let peak = before;
    // Buffers already dropped but not yet collected are not held: a sample over the limit
    // is taken again after a collection (on a busy machine collections come late).
    const sampler = setInterval(() => {
      let now = process.memoryUsage().arrayBuffers;
      if (now - before >= 40 * MiB) {
        collectGarbage();
        now = process.memoryUsage().arrayBuffers;
      }
      peak = Math.max(peak, now);
    }, 5);
    try {
      expect(await store.put('large/blob', generated(size))).toEqual({ size });
      expect(await sha256(await store.get('large/blob'))).toEqual(expected);
    } finally {
      clearInterval(sampler);
    }
    // S3 parts are 8 MiB with two in flight; the whole object would be 25 MiB more.
    expect(peak - before).toBeLessThan(40 * MiB);
    const tail = await sha256(await store.get('large/blob', { start: size - MiB, end: size - 1 }));
    expect(tail.size).toBe(MiB);
    await store.delete('large/blob');
  });

  it.each([
    { how: 'each chunk durable', options: {} },
    { how: 'durable at the commit (WebDAV PUT)', options: { deferSync: true } },
  ])('stages chunks in any order, replaces a chunk sent again, and commits them as one blob: $how', async ({ options }) => {
    const staging = store.staging;
    const chunk = 5 * MiB;
    const parts = [generated(chunk, 'a'), generated(chunk, 'b'), generated(1234, 'c')];
    const whole = await sha256(
      Readable.from(
        (async function* () {
          for (const seed of ['a', 'b']) for await (const p of generated(chunk, seed)) yield p;
          for await (const p of generated(1234, 'c')) yield p;
        })(),
      ),
    );
    expect(await staging.writeChunk('upload-1', 2, 2 * chunk, 1234, parts[2]!, options)).toEqual({ size: 1234 });
    expect(await staging.writeChunk('upload-1', 0, 0, chunk, generated(chunk, 'wrong'), options)).toEqual({ size: chunk });
    expect(await staging.writeChunk('upload-1', 0, 0, chunk, parts[0]!, options)).toEqual({ size: chunk });
    expect(await staging.writeChunk('upload-1', 1, chunk, chunk, parts[1]!, options)).toEqual({ size: chunk });
    const listed = [];
    for await (const staged of staging.list()) listed.push(staged.uploadId);
    expect(listed).toEqual(['upload-1']);
    expect(await keys(store)).toEqual([]);

    expect(await sha256(await staging.read('upload-1', 3, whole.size))).toEqual(whole);
    const key = blobKeyOf(whole.hash);
    await staging.commit('upload-1', 3, whole.size, key);
    expect(await sha256(await store.get(key))).toEqual(whole);
    expect(await keys(store)).toEqual([key]);
    await staging.discard('upload-1');
    const after = [];
    for await (const staged of staging.list()) after.push(staged.uploadId);
    expect(after).toEqual([]);
    await store.delete(key);
  });

  it('drops a staged upload and refuses a chunk whose stream fails', async () => {
    const staging = store.staging;
    await staging.writeChunk('upload-2', 0, 0, 3, Readable.from([Buffer.from('abc')]));
    await expect(staging.writeChunk('upload-2', 1, 3, 64 * 1024 + 10, failing())).rejects.toThrow();
    await staging.discard('upload-2');
    await staging.discard('upload-2');
    const listed = [];
    for await (const staged of staging.list()) listed.push(staged.uploadId);
    expect(listed).toEqual([]);
  });
});
