import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { AVATAR_URL_PREFIX, Avatars } from './avatars.js';
import type { AvatarsRepo } from './avatars.repo.js';

/** The repository's contract, in memory. */
function memoryRepo(): AvatarsRepo & { rows: Map<string, Buffer> } {
  const rows = new Map<string, Buffer>();
  return {
    rows,
    insert: async (key, image) => void (rows.has(key) || rows.set(key, image)),
    find: async (key) => rows.get(key) ?? null,
    delete: async (key) => void rows.delete(key),
  } as AvatarsRepo & { rows: Map<string, Buffer> };
}

const dirs: string[] = [];
afterEach(() => {
  for (const dir of dirs.splice(0)) fs.rmSync(dir, { recursive: true, force: true });
});

describe('avatars written by an earlier version', () => {
  it('are moved from <data>/avatars into the database, leftovers removed, the rest of the directory kept', async () => {
    const data = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-avatars-'));
    dirs.push(data);
    const legacy = path.join(data, 'avatars');
    fs.mkdirSync(legacy);
    const key = `${'a1'.repeat(16)}.webp`;
    fs.writeFileSync(path.join(legacy, key), 'webp bytes');
    fs.writeFileSync(path.join(legacy, `.${'b2'.repeat(16)}.webp.tmp`), 'half written');
    fs.writeFileSync(path.join(legacy, 'notes.txt'), 'not ours');
    const repo = memoryRepo();
    const avatars = new Avatars(repo, legacy);

    expect(await avatars.importLegacyFiles()).toBe(1);
    expect((await avatars.read(key))?.toString()).toBe('webp bytes');
    expect(fs.readdirSync(legacy)).toEqual(['notes.txt']);
    // Again (the next start): nothing left to move, nothing lost.
    expect(await avatars.importLegacyFiles()).toBe(0);
    expect(repo.rows.size).toBe(1);

    await avatars.remove(`${AVATAR_URL_PREFIX}${key}`);
    expect(await avatars.read(key)).toBeNull();
  });

  it('a data directory without avatars is fine', async () => {
    expect(await new Avatars(memoryRepo(), path.join(os.tmpdir(), 'bogwan-no-such-dir', 'avatars')).importLegacyFiles()).toBe(0);
  });
});
