import type { PermissionType } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { effectivePermissions, indexEntries } from './effective.js';
import type { EntryRow } from './permissions.repo.js';

const DEFAULTS: PermissionType[] = ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE'];
const entry = (node: string, type: 'user' | 'group', id: string, permissions: PermissionType[]): EntryRow => ({
  resource_id: `r-${node}`,
  node_id: node,
  entity_type: type,
  entity_id: id,
  permissions,
  access: 0,
});

// The chain of /root/sub/file: the node itself first.
const CHAIN = ['file', 'sub', 'root'];

const cases: { name: string; groups: string[]; entries: EntryRow[]; expected: PermissionType[] }[] = [
  { name: 'no entries anywhere: the defaults', groups: ['g1'], entries: [], expected: DEFAULTS },
  { name: 'no groups and no entry: the defaults', groups: [], entries: [entry('root', 'group', 'g1', ['READ'])], expected: DEFAULTS },
  {
    name: "the user's own entry wins over the groups'",
    groups: ['g1'],
    entries: [entry('root', 'user', 'u', ['READ']), entry('root', 'group', 'g1', ['READ', 'DOWNLOAD', 'TRASH'])],
    expected: ['READ'],
  },
  { name: 'an empty own entry denies everything', groups: ['g1'], entries: [entry('sub', 'user', 'u', [])], expected: [] },
  {
    name: 'the union of the groups that have entries',
    groups: ['g1', 'g2'],
    entries: [entry('root', 'group', 'g1', ['READ']), entry('root', 'group', 'g2', ['DOWNLOAD'])],
    expected: ['READ', 'DOWNLOAD'],
  },
  {
    name: 'a group without an entry adds the defaults',
    groups: ['g1', 'g2'],
    entries: [entry('root', 'group', 'g1', ['SHARE'])],
    expected: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'SHARE'],
  },
  {
    name: 'the nearest entry of an entity wins (sub narrows root)',
    groups: ['g1'],
    entries: [entry('root', 'group', 'g1', ['READ', 'DOWNLOAD', 'TRASH']), entry('sub', 'group', 'g1', ['READ'])],
    expected: ['READ'],
  },
  {
    name: 'an entry on the node itself beats its folders',
    groups: ['g1'],
    entries: [entry('root', 'group', 'g1', ['READ']), entry('file', 'group', 'g1', ['READ', 'UPDATE'])],
    expected: ['READ', 'UPDATE'],
  },
  {
    name: "another entity's entry lower down does not reset this group's inherited entry",
    groups: ['g1'],
    entries: [entry('root', 'group', 'g1', ['READ']), entry('sub', 'user', 'someone-else', ['READ', 'DELETE'])],
    expected: ['READ'],
  },
  {
    name: "a user's own entry high up beats a group's entry lower down",
    groups: ['g1'],
    entries: [entry('root', 'user', 'u', ['READ']), entry('sub', 'group', 'g1', ['READ', 'TRASH'])],
    expected: ['READ'],
  },
  { name: 'entries of groups the user is not in are ignored', groups: ['g1'], entries: [entry('root', 'group', 'g9', ['DELETE'])], expected: DEFAULTS },
];

describe('effective permission', () => {
  it.each(cases)('$name', ({ groups, entries, expected }) => {
    const held = effectivePermissions({ userId: 'u', groupIds: groups, defaults: DEFAULTS }, CHAIN, indexEntries(entries));
    expect([...held].sort()).toEqual([...expected].sort());
  });
});
