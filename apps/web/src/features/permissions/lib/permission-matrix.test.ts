import { PERMISSION_COLUMNS } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { MATRIX_COLUMNS, changedEntries, columnState, isNone, toggleColumn, togglePermission, type EntryPermissions } from './permission-matrix';

const column = (id: string) => PERMISSION_COLUMNS.find((c) => c.id === id)!;

describe('permission matrix', () => {
  it('adds every permission of a column when any is missing, removes them all when all are there', () => {
    expect(toggleColumn(['MOVE'], column('move_copy'))).toEqual(['MOVE', 'COPY']);
    expect(toggleColumn(['READ', 'MOVE', 'COPY'], column('move_copy'))).toEqual(['READ']);
    expect(toggleColumn(null, column('read'))).toEqual(['READ']);
    const all = toggleColumn(['DELETE'], column('all'));
    expect(all).toContain('TRASH');
    expect(all).toContain('DELETE');
    expect(all).not.toContain('SETTING');
    expect(toggleColumn(all, column('all'))).toEqual(['DELETE']);
  });

  it('tells all, some and none of a column apart', () => {
    expect(columnState(['LOCK'], column('lock_unlock'))).toBe('some');
    expect(columnState(['LOCK', 'UNLOCK'], column('lock_unlock'))).toBe('all');
    expect(columnState(null, column('lock_unlock'))).toBe('none');
  });

  it('toggles a single permission and keeps the spec order', () => {
    expect(togglePermission(['TRASH', 'READ'], 'DOWNLOAD')).toEqual(['READ', 'DOWNLOAD', 'TRASH']);
    expect(togglePermission(['READ', 'DOWNLOAD'], 'READ')).toEqual(['DOWNLOAD']);
  });

  it('ticks none only for an entry that grants nothing, not for a row that inherits', () => {
    expect(isNone([])).toBe(true);
    expect(isNone(null)).toBe(false);
    expect(isNone(['READ'])).toBe(false);
  });

  it('leaves the hidden delete and setting columns out of the folder matrix', () => {
    expect(MATRIX_COLUMNS.map((c) => c.id)).not.toContain('delete');
    expect(MATRIX_COLUMNS.map((c) => c.id)).not.toContain('setting');
    expect(MATRIX_COLUMNS[0]?.id).toBe('all');
  });

  it('sends only entries that differ from how they were loaded, and nothing when nothing changed', () => {
    const original = new Map<string, EntryPermissions>([
      ['g1', ['READ', 'DOWNLOAD']],
      ['g2', null],
      ['g3', ['READ']],
      ['g4', []],
    ]);
    expect(changedEntries(original, new Map(original))).toEqual([]);
    const current = new Map<string, EntryPermissions>([
      ['g1', ['DOWNLOAD', 'READ']],
      ['g2', ['READ']],
      ['g3', null],
      ['g4', []],
    ]);
    expect(changedEntries(original, current)).toEqual([
      { entity: 'g2', permissions: ['READ'] },
      { entity: 'g3', remove: true },
    ]);
  });
});
