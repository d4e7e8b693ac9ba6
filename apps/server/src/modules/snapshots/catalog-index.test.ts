import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import type { CatalogRow } from './catalog.js';
import { Catalog } from './catalog-index.js';

const owners = [
  { id: 'u1', email: 'kim@example.com' },
  { id: 'u2', email: 'lee@example.com' },
];
const roots = [
  { name: 'Team', backend: 'server' },
  { name: 'Cloud', backend: 'cloud' },
];
const folder = (p: string, owner = 0): CatalogRow => [p, 1, 0, '2026-01-01T00:00:00.000Z', owner, '', `id-${p}`, 1];
const file = (p: string, size: number, owner = 0): CatalogRow => [p, 0, size, '2026-01-02T00:00:00.000Z', owner, `hash-${p}`];

// Walk order, as a snapshot writes it; names chosen so that byte order and the listing's order differ
// ("a b" sorts before "a/…" by bytes, "Zeta" before "alpha", a folder after files by name).
const BIG = 3000;
const rows: CatalogRow[] = [
  folder('Team'),
  folder('Team/docs', 1),
  file('Team/docs/보고서.hwp', 100, 1),
  folder('Team/docs/a'),
  file('Team/docs/a/inner.txt', 7),
  file('Team/docs/a b.txt', 5, -1),
  file('Team/docs/Zeta.txt', 3),
  file('Team/docs/alpha.txt', 2),
  folder('Team/big'),
  ...Array.from({ length: BIG }, (_, i) => file(`Team/big/f${String(i).padStart(5, '0')}`, 1)),
  folder('Cloud', 1),
  file('Cloud/x.bin', 9, 1),
];

const v2 =
  [JSON.stringify({ version: 2, createdAt: '2026-01-03T00:00:00.000Z' }), ...rows.map((r) => JSON.stringify(r)), JSON.stringify({ roots, owners })].join('\n') +
  '\n';
const v1 = JSON.stringify({ version: 1, createdAt: '2026-01-03T00:00:00.000Z', roots, owners, rows });

let dir: string;
beforeAll(async () => {
  dir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-index-'));
  await fs.writeFile(path.join(dir, 'v2'), v2);
  await fs.writeFile(path.join(dir, 'v1'), v1);
});
afterAll(() => fs.rm(dir, { recursive: true, force: true }));

const indexFiles = async () => (await fs.readdir(path.join(dir, 'index')).catch(() => [])).filter((n) => n.startsWith('catalog-index-'));

describe.each(['v2', 'v1'])('Catalog index (version %s file)', (version) => {
  let catalog: Catalog;
  beforeAll(async () => {
    catalog = await Catalog.read(path.join(dir, version), path.join(dir, 'index'));
  });
  afterAll(() => catalog.close());

  it('finds entries by path, with their owner', () => {
    expect(catalog.get('Team/docs/보고서.hwp')).toEqual({
      path: 'Team/docs/보고서.hwp',
      name: '보고서.hwp',
      folder: false,
      size: 100,
      mtime: '2026-01-02T00:00:00.000Z',
      owner: owners[1],
      hash: 'hash-Team/docs/보고서.hwp',
    });
    expect(catalog.get('Team/docs/a b.txt')?.owner).toBeNull();
    expect(catalog.get('Team/docs/missing')).toBeUndefined();
    expect(catalog.get('Team/doc')).toBeUndefined();
  });

  it('lists a folder: folders first, then by name; the top lists the roots', () => {
    expect(catalog.list('Team/docs').map((i) => i.name)).toEqual(['a', 'a b.txt', 'alpha.txt', 'Zeta.txt', '보고서.hwp']);
    expect(catalog.list('Team/docs')[0]).toEqual({
      path: 'Team/docs/a',
      name: 'a',
      folder: true,
      size: 0,
      mtime: '2026-01-01T00:00:00.000Z',
      owner: 'kim@example.com',
    });
    expect(catalog.list('').map((i) => i.name)).toEqual(['Cloud', 'Team']);
    expect(catalog.list('Team/big')).toHaveLength(BIG);
    expect(catalog.list('Team/docs/alpha.txt')).toEqual([]);
  });

  it('walks everything under an item, each parent before its children, across pages', () => {
    const under = [...catalog.under('Team')].map((e) => e.path);
    expect(new Set(under)).toEqual(new Set(rows.filter((r) => r[0] === 'Team' || r[0].startsWith('Team/')).map((r) => r[0])));
    expect(under).toHaveLength(rows.length - 2);
    for (const p of under) if (p.includes('/')) expect(under.indexOf(p.slice(0, p.lastIndexOf('/')))).toBeLessThan(under.indexOf(p));
    expect([...catalog.under('Team/docs/a')].map((e) => e.path)).toEqual(['Team/docs/a', 'Team/docs/a/inner.txt']);
    expect([...catalog.under('Cloud/x.bin')].map((e) => e.path)).toEqual(['Cloud/x.bin']);
    expect([...catalog.under('Nowhere')]).toEqual([]);
  });

  it('sums sizes and gathers owners under an item', () => {
    expect(catalog.sizeUnder('Team/docs')).toBe(100 + 7 + 5 + 3 + 2);
    expect(catalog.sizeUnder('Team/docs/a')).toBe(7);
    expect(catalog.sizeUnder('Team')).toBe(117 + BIG);
    expect(catalog.sizeUnder('Cloud/x.bin')).toBe(9);
    expect(catalog.ownersUnder('Team/docs/a').map((o) => o.email)).toEqual(['kim@example.com']);
    expect(new Set(catalog.ownersUnder('Team/docs').map((o) => o.email))).toEqual(new Set(['kim@example.com', 'lee@example.com']));
  });

  it("knows each root's backend", () => {
    expect(catalog.rootBackend('Cloud')).toBe('cloud');
    expect(catalog.rootBackend('Team')).toBe('server');
  });
});

describe('Catalog index files', () => {
  it('are removed when the catalog is closed', async () => {
    const catalog = await Catalog.read(path.join(dir, 'v2'), path.join(dir, 'index'));
    expect(await indexFiles()).toHaveLength(1);
    await catalog.close();
    expect(await indexFiles()).toHaveLength(0);
  });

  it('are removed when the catalog cannot be read', async () => {
    await fs.writeFile(path.join(dir, 'broken'), `${JSON.stringify({ version: 2, createdAt: 'x' })}\n${JSON.stringify(rows[0])}\n`);
    await expect(Catalog.read(path.join(dir, 'broken'), path.join(dir, 'index'))).rejects.toThrow('trailer');
    expect(await indexFiles()).toHaveLength(0);
  });
});
