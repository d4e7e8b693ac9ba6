import { sql } from 'kysely';
import { expect, it } from 'vitest';
import type { Db } from '../src/db/index.js';
import { type NodeFilters, SearchRepo } from '../src/modules/search/search.repo.js';
import { describeEachDialect } from './harness.js';
import { migratedTestDb, nodeRow } from './node-rows.js';

// Name matches are ranked whole name, then names starting with the keyword, then the rest,
// newest (highest id) first within each, after the filters. The prefix tier is read in one of
// three ways depending on how many names start with the keyword and where they lie (the range
// sorted, a walk of the newest nodes, the range sorted after a walk that found too few); every
// way must answer exactly what a ranking of every row answers.

const OLD = '2026-01-01T00:00:00.000Z';
const NEW = '2026-06-01T00:00:00.000Z';

interface Spec {
  name: string;
  folder?: boolean;
  old?: boolean;
  trashed?: boolean;
  /** Index of the parent among the boxes (for names repeated in several folders). */
  box?: number;
}

/** A fixed-shape UUIDv7-like id: compares as its number. */
const idOf = (n: number) => `01900000-0000-7000-8000-${String(n).padStart(12, '0')}`;

/** A deterministic shuffle (mulberry32), so ids and insertion order disagree the same way on every run. */
function shuffled<T>(items: T[], seed: number): T[] {
  let a = seed;
  const random = () => {
    a = (a + 0x6d2b79f5) | 0;
    let t = Math.imul(a ^ (a >>> 15), 1 | a);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
  const out = [...items];
  for (let i = out.length - 1; i > 0; i -= 1) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

type Row = ReturnType<typeof nodeRow>;

/** Writes the rows in the given order (not id order: the name indexes see them in insertion order). */
async function insert(db: Db, rows: Row[]): Promise<void> {
  for (let i = 0; i < rows.length; i += 500) {
    await db
      .insertInto('nodes')
      .values(rows.slice(i, i + 500))
      .execute();
  }
}

/**
 * Rows for the specs, with ids given by `ids` (spec i gets id number ids[i]), under a root and
 * ten box folders (ids above every spec's, named so that no keyword matches them).
 */
function rowsFor(specs: Spec[], ids: number[]): Row[] {
  const top = specs.length + 100;
  const boxes = Array.from({ length: 10 }, (_, k) => nodeRow(idOf(top + k), idOf(top + 10), `box-${k}`, { folder: 1 }));
  const root = nodeRow(idOf(top + 10), '', 'root-folder', { folder: 1 });
  const rows = specs.map((spec, i) => ({
    ...nodeRow(idOf(ids[i]!), spec.box === undefined ? root.id : boxes[spec.box]!.id, spec.name, {
      folder: spec.folder ? 1 : 0,
      trashKey: spec.trashed ? idOf(ids[i]!) : '',
    }),
    mtime: spec.old ? OLD : NEW,
  }));
  return [root, ...boxes, ...rows];
}

/** The ranking by brute force over every row: live, within the filters, tier, then id descending. */
function expected(rows: Row[], keyword: string, filters: NodeFilters, want: number): string[] {
  const k = keyword.toLowerCase();
  const tier = (name: string) => (name.toLowerCase() === k ? 0 : name.toLowerCase().startsWith(k) ? 1 : name.toLowerCase().includes(k) ? 2 : -1);
  return rows
    .filter((row) => row.trash_key === '' && tier(row.name) >= 0)
    .filter((row) => (filters.from === undefined || row.mtime >= filters.from) && (filters.to === undefined || row.mtime <= filters.to))
    .filter((row) => filters.folder === undefined || row.folder === (filters.folder ? 1 : 0))
    .sort((a, b) => tier(a.name) - tier(b.name) || (a.id < b.id ? 1 : a.id > b.id ? -1 : 0))
    .slice(0, want)
    .map((row) => row.id);
}

describeEachDialect('ranked name matches on $dialect', (dialect) => {
  /** A database holding the rows, analysed on PostgreSQL (as autovacuum would), and its repository. */
  async function loaded(rows: Row[]) {
    const db = await migratedTestDb(dialect);
    await insert(db, shuffled(rows, 7));
    if (dialect === 'postgres') await sql`analyze nodes`.execute(db);
    return new SearchRepo(db);
  }

  async function expectRanking(repo: SearchRepo, rows: Row[], keyword: string, filters: NodeFilters, wants: number[]) {
    for (const want of wants) {
      const found = (await repo.nameMatches(keyword, filters, want)).map((node) => node.id);
      expect(found, `${keyword} ${JSON.stringify(filters)} want ${want}`).toEqual(expected(rows, keyword, filters, want));
    }
  }

  it('a prefix thousands of names start with, spread over old and new ids: exact, prefix and contains tiers with filters', async () => {
    // 2,600 names start with the keyword (more than the 2,000 rows the prefix range is probed
    // for), 5 are the keyword itself, 150 hold it elsewhere, 3,000 do not hold it; ids shuffled
    // over all of them, a third of them changed long ago, some in the trash, a few folders.
    const specs: Spec[] = [
      ...Array.from({ length: 2600 }, (_, i) => ({ name: `report-${i}.txt`, old: i % 3 === 0, trashed: i % 97 === 0, folder: i % 50 === 0 })),
      ...Array.from({ length: 5 }, (_, i) => ({ name: i % 2 ? 'Report' : 'REPORT', box: i, old: i === 1, folder: i === 2 })),
      ...Array.from({ length: 150 }, (_, i) => ({ name: `q3-report-${i}.txt`, old: i % 4 === 0, trashed: i === 10 })),
      ...Array.from({ length: 3000 }, (_, i) => ({ name: `notes-${i}.txt`, old: i % 2 === 0 })),
    ];
    const rows = rowsFor(
      specs,
      shuffled(
        specs.map((_, i) => i),
        11,
      ),
    );
    const repo = await loaded(rows);
    const wants = [1, 20, 40, 200, 2000, 3000];
    await expectRanking(repo, rows, 'report', {}, wants);
    await expectRanking(repo, rows, 'REPORT', {}, [40]);
    // The date filter drops two thirds of the prefix matches (on SQLite after the candidates are read).
    await expectRanking(repo, rows, 'report', { to: '2026-03-01T00:00:00.000Z' }, wants);
    await expectRanking(repo, rows, 'report', { from: '2026-03-01T00:00:00.000Z' }, [40, 200]);
    // Folders only: 52 prefix matches among 2,600, and one exact match.
    await expectRanking(repo, rows, 'report', { folder: true }, [20, 40, 200]);
    await expectRanking(repo, rows, 'report', { folder: false, to: '2026-03-01T00:00:00.000Z' }, [40]);
    // A longer keyword is a rarer prefix of the same names.
    await expectRanking(repo, rows, 'report-1', {}, [20, 200, 2000]);
  }, 120_000);

  it('a frequent prefix whose names are all old: the walk of the newest nodes finds none, the range answers', async () => {
    // The 2,100 prefix matches hold the lowest ids; 4,000 newer names do not match.
    const specs: Spec[] = [
      ...Array.from({ length: 2100 }, (_, i) => ({ name: `scan-${i}.pdf`, old: i % 2 === 0 })),
      ...Array.from({ length: 4000 }, (_, i) => ({ name: `photo-${i}.jpg` })),
      ...Array.from({ length: 30 }, (_, i) => ({ name: `old-scan-${i}.pdf` })),
      { name: 'scan', box: 3 },
    ];
    const ids = [
      ...shuffled(
        Array.from({ length: 2100 }, (_, i) => i),
        3,
      ),
      ...shuffled(
        Array.from({ length: specs.length - 2100 }, (_, i) => 2100 + i),
        5,
      ),
    ];
    const rows = rowsFor(specs, ids);
    const repo = await loaded(rows);
    await expectRanking(repo, rows, 'scan', {}, [1, 40, 200, 2000]);
    await expectRanking(repo, rows, 'scan', { from: '2026-03-01T00:00:00.000Z' }, [40, 200]);
  }, 120_000);

  it('a rare prefix: all its names ranked from the range', async () => {
    const specs: Spec[] = [
      ...Array.from({ length: 30 }, (_, i) => ({ name: `budget-${i}.xlsx`, old: i % 2 === 0 })),
      ...Array.from({ length: 3 }, (_, i) => ({ name: 'budget', box: i, folder: i === 0 })),
      ...Array.from({ length: 12 }, (_, i) => ({ name: `2027-budget-${i}.xlsx`, trashed: i === 0 })),
      ...Array.from({ length: 200 }, (_, i) => ({ name: `misc-${i}.bin` })),
    ];
    const rows = rowsFor(
      specs,
      shuffled(
        specs.map((_, i) => i),
        13,
      ),
    );
    const repo = await loaded(rows);
    await expectRanking(repo, rows, 'budget', {}, [1, 2, 3, 10, 20, 40, 200]);
    await expectRanking(repo, rows, 'budget', { from: '2026-03-01T00:00:00.000Z' }, [5, 40]);
    await expectRanking(repo, rows, 'budget', { folder: true }, [40]);
    // Two characters: the character-pair indexes for the rest.
    await expectRanking(repo, rows, 'bu', {}, [20, 200]);
  }, 120_000);
});
