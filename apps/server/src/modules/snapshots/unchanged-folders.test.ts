import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { type CatalogRow, ParentCatalog } from './catalog.js';
import { UnchangedFolders } from './unchanged-folders.js';

const folder = (path: string, id: string, changes: number): CatalogRow => [path, 1, 0, '2026-11-28T00:00:00.000Z', -1, '', id, changes];
const file = (path: string, size: number): CatalogRow => [path, 0, size, '2026-11-28T00:00:00.000Z', -1, 'h'];

const catalog = (rows: CatalogRow[]) => rows;

// T ─ a ─ x ─ f1
//   │   └ f2
//   └ b ─ f3
const rows = [
  folder('T', 't', 3),
  folder('T/a', 'a', 2),
  folder('T/a/x', 'x', 1),
  file('T/a/x/f1', 10),
  file('T/a/f2', 20),
  folder('T/b', 'b', 1),
  file('T/b/f3', 30),
];
const counts = new Map([
  ['t', 3],
  ['a', 2],
  ['x', 1],
  ['b', 1],
]);

describe('folders unchanged since the parent snapshot', () => {
  it('finds a folder with its rows and totals when no count at or below it moved', () => {
    const unchanged = UnchangedFolders.of(catalog(rows), counts)!;
    expect(unchanged.find('T', 't')).toMatchObject({ from: 0, to: 7, files: 3, dirs: 3, size: 60 });
    expect(unchanged.find('T/a', 'a')).toMatchObject({ from: 1, to: 5, files: 2, dirs: 1, size: 30 });
  });

  it('a moved count makes the folder and every folder above it changed, not its siblings', () => {
    const unchanged = UnchangedFolders.of(catalog(rows), new Map([...counts, ['x', 2]]))!;
    expect(unchanged.find('T/a/x', 'x')).toBeUndefined();
    expect(unchanged.find('T/a', 'a')).toBeUndefined();
    expect(unchanged.find('T', 't')).toBeUndefined();
    expect(unchanged.find('T/b', 'b')).toBeDefined();
  });

  it('another node at the same path is not the same folder', () => {
    const unchanged = UnchangedFolders.of(catalog(rows), counts)!;
    expect(unchanged.find('T/b', 'a')).toBeUndefined();
    expect(unchanged.find('T/c', 'b')).toBeUndefined();
  });

  it('a folder without a count row counts 0 on both sides', () => {
    const unchanged = UnchangedFolders.of(catalog([folder('T', 't', 0), file('T/f', 1)]), new Map())!;
    expect(unchanged.find('T', 't')).toMatchObject({ files: 1 });
  });

  it('cannot tell from a catalog without folder counts or not in walk order', () => {
    expect(UnchangedFolders.of(catalog([['T', 1, 0, '', -1, ''], file('T/f', 1)]), counts)).toBeNull();
    expect(UnchangedFolders.of(catalog([folder('T', 't', 3), file('U/f', 1)]), counts)).toBeNull();
  });

  it('reads paths with quotes, backslashes and Korean names as their folders', () => {
    const odd = [
      folder('팀', 't', 1),
      folder('팀/a"b\\', 'q', 1),
      file('팀/a"b\\/문서 "1".hwp', 5),
      folder('팀/a"b\\/c\\"', 'r', 1),
      file('팀/a"b\\/c\\"/f', 7),
      file('팀/a"b\\/g', 11),
      folder('팀/a', 's', 1),
      file('팀/a/h', 13),
    ];
    const unchanged = UnchangedFolders.of(
      odd,
      new Map([
        ['t', 1],
        ['q', 1],
        ['r', 1],
        ['s', 1],
      ]),
    )!;
    expect(unchanged.find('팀/a"b\\', 'q')).toMatchObject({ files: 3, dirs: 1, size: 23 });
    expect(unchanged.find('팀/a"b\\/c\\"', 'r')).toMatchObject({ files: 1, dirs: 0, size: 7 });
    expect(unchanged.find('팀/a', 's')).toMatchObject({ files: 1, size: 13 });
    expect(unchanged.find('팀', 't')).toMatchObject({ files: 4, dirs: 3, size: 36 });
  });

  it('byte ranges of a folder cover exactly the lines below its own', () => {
    const lines = rows.map((row) => JSON.stringify(row));
    const unchanged = UnchangedFolders.of(rows, counts)!;
    const text = lines.map((l) => `${l}\n`).join('');
    const { start, end } = unchanged.find('T/a', 'a')!;
    expect(Buffer.from(text).subarray(start, end).toString()).toBe(`${lines[2]}\n${lines[3]}\n${lines[4]}\n`);
  });

  it('a parent catalog file larger than a read piece finds the same folders as its rows in memory', async () => {
    // 200 folders (odd names among them) of 150 files each: ~3 MiB, so lines cross the 1 MiB pieces.
    const big: CatalogRow[] = [folder('팀', 'root', 1)];
    const now = new Map([['root', 1]]);
    for (let f = 0; f < 200; f++) {
      const name = f % 7 === 0 ? `팀/폴더 "${f}"\\` : `팀/folder-${f}`;
      big.push(folder(name, `f${f}`, 4));
      now.set(`f${f}`, f % 50 === 3 ? 5 : 4);
      for (let i = 0; i < 150; i++) big.push(file(`${name}/문서 ${i}.hwp`, f * 1000 + i));
    }
    const text = [
      JSON.stringify({ version: 2, createdAt: '2026-11-29T00:00:00.000Z' }),
      ...big.map((r) => JSON.stringify(r)),
      JSON.stringify({ roots: [], owners: [] }),
    ].join('\n');
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'parent-catalog-'));
    try {
      const bytes = Buffer.from(`${text}\n`);
      expect(bytes.length).toBeGreaterThan(2 * 1024 * 1024);
      const pieces = async function* () {
        for (let at = 0; at < bytes.length; at += 300_001) yield bytes.subarray(at, at + 300_001);
      };
      const parent = await ParentCatalog.read(pieces(), path.join(dir, 'catalog'), now);
      const inMemory = UnchangedFolders.of(big, now)!;
      const header = Buffer.byteLength(text.slice(0, text.indexOf('\n') + 1));
      for (let f = 0; f < 200; f++) {
        const name = f % 7 === 0 ? `팀/폴더 "${f}"\\` : `팀/folder-${f}`;
        const expected = inMemory.find(name, `f${f}`);
        const found = parent.unchanged!.find(name, `f${f}`);
        if (f % 50 === 3) expect(found).toBeUndefined();
        else expect(found).toEqual({ ...expected, start: expected!.start + header, end: expected!.end + header });
      }
      // The root holds changed folders: it is not taken whole.
      expect(parent.unchanged!.find('팀', 'root')).toBeUndefined();
      const { start, end } = parent.unchanged!.find('팀/folder-1', 'f1')!;
      expect(bytes.subarray(start, end).toString().split('\n').filter(Boolean)).toHaveLength(150);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
