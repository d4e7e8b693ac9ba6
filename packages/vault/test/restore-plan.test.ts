import { describe, expect, it } from 'vitest';
import { BlobIndex, BlobType } from '../src/blob-index.js';
import { RestoreFiles, RestoreNeeds } from '../src/restore-plan.js';

const id = (n: number) => Buffer.alloc(32, n);
const pack = (n: number) => Buffer.alloc(32, 200 + n);

describe('restore plan', () => {
  it('keeps 5,000 files with their paths, attributes and counts past the first columns', () => {
    const files = new RestoreFiles();
    const rows: number[] = [];
    for (let i = 0; i < 5_000; i++) {
      const name = i % 3 ? `파일 ${i}.txt` : `file-${i}`;
      const rel = i % 2 ? `문서/깊은 폴더/${name}` : i % 5 ? `a/${name}` : name;
      rows.push(files.add(rel, name, 0o600 + (i % 64), 1_700_000_000_123.5 + i, i * 4096 + 1));
    }
    for (const [i, f] of rows.entries()) {
      const name = i % 3 ? `파일 ${i}.txt` : `file-${i}`;
      expect(files.path(f)).toBe(i % 2 ? `문서/깊은 폴더/${name}` : i % 5 ? `a/${name}` : name);
      expect([files.mode(f), files.mtimeMs(f), files.size(f)]).toEqual([0o600 + (i % 64), 1_700_000_000_123.5 + i, i * 4096 + 1]);
      expect(files.whole(f)).toBe(false);
    }
    files.markWhole(rows[4_321]!);
    files.expect(rows[4_999]!);
    files.expect(rows[4_999]!);
    expect(files.whole(rows[4_321]!)).toBe(true);
    expect(files.arrived(rows[4_999]!)).toBe(1);
    expect(files.remaining(rows[4_999]!)).toBe(1);
    files.fail(rows[7]!, 'first reason');
    files.fail(rows[7]!, 'second reason');
    expect(files.error(rows[7]!)).toBe('first reason');
    expect(files.error(rows[8]!)).toBeUndefined();
  });

  it('keeps every target of a blob needed several times, and groups the blobs by pack in pack order', () => {
    const index = new BlobIndex();
    // Entries 0..5: packs 1, 0, 1, 0, 2, 1 at descending offsets.
    const layout = [
      [1, 900],
      [0, 800],
      [1, 100],
      [0, 50],
      [2, 0],
      [1, 500],
    ] as const;
    layout.forEach(([p, offset], n) => index.add(id(n), { type: BlobType.Data, pack: pack(p), offset, length: 10, rawLength: 20 }));
    const needs = new RestoreNeeds(index);
    const entry = (n: number) => index.find(id(n));
    needs.want(entry(0), 1, 0);
    needs.want(entry(3), 2, 0);
    needs.want(entry(0), 1, 20); // the same chunk twice in one file
    needs.want(entry(2), 3, 0);
    needs.want(entry(0), 4, 0); // and in another file
    needs.want(entry(5), 3, 20);
    needs.want(entry(1), 5, 0);
    needs.want(entry(4), 6, 0);
    const groups = needs.byPack();
    const packOf = (row: number) => index.packs()[index.packNumberAt(needs.entry(row))]!;
    // One group per pack, each in ascending offset order, and every blob once.
    expect(groups.map((g) => g.rows.map((r) => index.offsetAt(needs.entry(r))))).toEqual(
      groups.map((g) => g.rows.map((r) => index.offsetAt(needs.entry(r))).sort((a, b) => a - b)),
    );
    expect(groups.map((g) => packOf(g.rows[0]!)[0]).sort()).toEqual([200, 201, 202]);
    for (const g of groups) for (const r of g.rows) expect(packOf(r).equals(packOf(g.rows[0]!))).toBe(true);
    expect(groups.flatMap((g) => g.rows.map((r) => needs.entry(r))).sort()).toEqual([0, 1, 2, 3, 4, 5].map(entry).sort());
    const rowOf = (n: number) => groups.flatMap((g) => g.rows).find((r) => needs.entry(r) === entry(n))!;
    expect(needs.targets(rowOf(0))).toEqual([
      { file: 1, offset: 0 },
      { file: 1, offset: 20 },
      { file: 4, offset: 0 },
    ]);
    expect(needs.targets(rowOf(5))).toEqual([{ file: 3, offset: 20 }]);
  });
});
