// The background walks (the CLI's backup source: on a thread of its own, or listing
// directories through the native codec) hand the backup exactly what the in-thread walk
// does, in the same order, and fail the same way.
import fs from 'node:fs/promises';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { BackgroundWalk } from '../src/background-walk.js';
import { nativeCodec } from '../src/native.js';
import { NativeWalk } from '../src/native-walk.js';
import { type SourceEntry, walkPaths } from '../src/source.js';
import { tempDir } from './helpers.js';

async function tree(): Promise<string> {
  const root = path.join(await tempDir('walk'), 'data');
  await fs.mkdir(path.join(root, 'b', 'deep', 'er'), { recursive: true });
  await fs.mkdir(path.join(root, 'a'), { recursive: true });
  await fs.mkdir(path.join(root, '빈 폴더'));
  for (let i = 0; i < 40; i++) await fs.writeFile(path.join(root, 'a', `f${String(i).padStart(2, '0')}.txt`), `file ${i}\n`.repeat(i));
  await fs.writeFile(path.join(root, 'b', 'deep', 'er', '한글 이름.txt'), 'deep content');
  await fs.writeFile(path.join(root, 'empty'), '');
  await fs.symlink('a/f01.txt', path.join(root, 'link'));
  await fs.chmod(path.join(root, 'a', 'f02.txt'), 0o600);
  return root;
}

async function collect(source: AsyncIterable<SourceEntry>): Promise<{ entries: Omit<SourceEntry, 'open'>[]; contents: Record<string, string> }> {
  const entries: Omit<SourceEntry, 'open'>[] = [];
  const contents: Record<string, string> = {};
  for await (const entry of source) {
    const { open, ...rest } = entry;
    entries.push(rest);
    if (open) {
      const pieces: Uint8Array[] = [];
      for await (const piece of open()) pieces.push(piece);
      contents[entry.path] = Buffer.concat(pieces).toString('utf8');
    }
  }
  return { entries, contents };
}

const codec = nativeCodec();
type Walk = AsyncIterable<SourceEntry> & { close(): Promise<void> };
const ways: [string, (paths: string[], ahead?: number) => Walk][] = [
  ['on a thread', (paths, ahead) => new BackgroundWalk(paths, ahead)],
  ['through the native codec', (paths, ahead) => new NativeWalk(paths, codec!, ahead)],
];

// Where the codec was not built (no compiler), the CLI walks on a thread; CI must have it.
describe.each(ways)('background walk %s', (way, walkOf) => {
  const skip = way === 'through the native codec' && !codec && !process.env.CI;

  it.skipIf(skip)('yields the same entries, in the same order and with the same contents, as the in-thread walk', async () => {
    const root = await tree();
    const other = path.join(await tempDir('walk2'), 'second');
    await fs.mkdir(other);
    await fs.writeFile(path.join(other, 'x'), 'x');
    const expected = await collect(walkPaths([root, other]));
    // A tiny read-ahead makes the walker wait for the consumer many times over.
    const got = await collect(walkOf([root, other], 3));
    expect(got.entries).toEqual(expected.entries);
    expect(got.contents).toEqual(expected.contents);
    expect(got.entries.length).toBeGreaterThan(45);
    expect(got.entries.find((e) => e.path === 'data/link')).toMatchObject({ type: 'symlink', target: 'a/f01.txt' });
    expect(got.entries.find((e) => e.path === 'data/a/f02.txt')!.mode).toBe(0o600);
    expect(got.contents['data/b/deep/er/한글 이름.txt']).toBe('deep content');
  });

  it.skipIf(skip)('fails like the in-thread walk when a path does not exist', async () => {
    const missing = path.join(await tempDir('walk-missing'), 'nope');
    await expect(collect(walkOf([missing]))).rejects.toMatchObject({ code: 'ENOENT' });
    const a = path.join(await tempDir('walk-dup1'), 'same');
    const b = path.join(await tempDir('walk-dup2'), 'same');
    await fs.mkdir(a);
    await fs.mkdir(b);
    await expect(collect(walkOf([a, b]))).rejects.toThrow(/share the name "same"/);
  });

  it.skipIf(skip)('can be left early or never iterated, and then stops its thread', async () => {
    const root = await tree();
    const walk = walkOf([root], 2);
    let seen = 0;
    for await (const _ of walk) if (++seen === 5) break;
    expect(seen).toBe(5);
    const unused = walkOf([root]);
    await unused.close();
    await expect(collect(unused)).resolves.toMatchObject({ entries: [] });
  });
});

describe.skipIf(!codec && !process.env.CI)('native directory listing', () => {
  it("fails with the code and wording of Node's own readdir", async () => {
    const missing = path.join(await tempDir('list-missing'), 'nope');
    const expected = await fs.readdir(missing).catch((err: NodeJS.ErrnoException) => err);
    const got = await codec!.listDirectory(missing).catch((err: NodeJS.ErrnoException) => err);
    expect(got).toBeInstanceOf(Error);
    expect(got).toMatchObject({ code: 'ENOENT', syscall: 'scandir', path: missing, message: (expected as Error).message });
  });
});
