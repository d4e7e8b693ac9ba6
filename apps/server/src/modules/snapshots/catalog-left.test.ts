import fs from 'node:fs/promises';
import os from 'node:os';
import path from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { removeLeftCatalogs, stagingRoot } from './catalog-cache.js';

let dataDir: string;
beforeEach(async () => {
  dataDir = await fs.mkdtemp(path.join(os.tmpdir(), 'catalog-left-'));
});
afterEach(async () => {
  await fs.rm(dataDir, { recursive: true, force: true });
});

describe('catalog reads left behind', () => {
  it('a starting process removes old ones only: a catalog another process is reading now stays', async () => {
    const root = stagingRoot(dataDir);
    await fs.mkdir(path.join(root, 'catalog-old'), { recursive: true });
    await fs.writeFile(path.join(root, 'catalog-old', 'catalog'), 'x');
    await fs.writeFile(path.join(root, 'catalog-index-old.sqlite'), 'x');
    await fs.mkdir(path.join(root, 'catalog-new'), { recursive: true });
    await fs.writeFile(path.join(root, 'catalog-index-new.sqlite'), 'x');
    await fs.mkdir(path.join(root, 'restore-1'), { recursive: true });
    const twoHoursAgo = new Date(Date.now() - 2 * 60 * 60 * 1000);
    for (const name of ['catalog-old', 'catalog-index-old.sqlite', 'restore-1']) await fs.utimes(path.join(root, name), twoHoursAgo, twoHoursAgo);

    await removeLeftCatalogs(dataDir);

    expect((await fs.readdir(root)).sort()).toEqual(['catalog-index-new.sqlite', 'catalog-new', 'restore-1']);
  });

  it('does nothing when there is no staging directory', async () => {
    await expect(removeLeftCatalogs(dataDir)).resolves.toBeUndefined();
  });
});
