import type { FolderAccess } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { changedFolders, loadedChoice, type AccessChoice } from './folder-access';

const row = (inode: string, access: number, explicit: boolean): FolderAccess => ({
  inode,
  path: `/${inode}`,
  name: inode,
  permissions: [],
  access,
  explicit,
});

describe('folder access rows', () => {
  it('loads an entry as its level and a missing entry as inherit', () => {
    expect(loadedChoice(row('a', 2, true))).toBe(2);
    expect(loadedChoice(row('a', 1, false))).toBe('inherit');
  });

  it('sends only the folders whose level changed, removal for inherit', () => {
    const rows = [row('a', 2, true), row('b', 1, false), row('c', 0, true)];
    const choices = new Map<string, AccessChoice>([
      ['a', 2],
      ['b', 1],
      ['c', 'inherit'],
    ]);
    expect(changedFolders(rows, choices, 'u1')).toEqual([
      { path: '/b', entry: { entity: 'u1', access: 1 } },
      { path: '/c', entry: { entity: 'u1', remove: true } },
    ]);
    expect(changedFolders(rows, new Map(), 'u1')).toEqual([]);
  });
});
