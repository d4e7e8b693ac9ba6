import { describe, expect, it } from 'vitest';
import { applyChoices, chooseForAll, conflictsOf, defaultChoice, type ConflictChoice } from './conflicts';

const file = { name: 'a.txt', kind: 'file' as const, suggested: 'a (1).txt' };
const folder = { name: 'b.txt', kind: 'folder' as const, suggested: 'b (1).txt' };

describe('upload conflicts', () => {
  it('are the taken names of a check answer', () => {
    const items = [
      { name: 'a.txt', exists: true, kind: 'file' as const, suggested: 'a (1).txt' },
      { name: 'new.txt', exists: false, kind: null, suggested: 'new.txt' },
    ];
    expect(conflictsOf(items)).toEqual([file]);
  });

  it('default to replace, or keep both when a folder holds the name', () => {
    expect(defaultChoice(file)).toBe('replace');
    expect(defaultChoice(folder)).toBe('keep-both');
  });

  it('apply a choice for all only where it is offered', () => {
    const all = chooseForAll([file, folder], new Map(), 'replace');
    expect([...all]).toEqual([
      ['a.txt', 'replace'],
      ['b.txt', 'keep-both'],
    ]);
    expect([...chooseForAll([file, folder], all, 'skip').values()]).toEqual(['skip', 'skip']);
  });

  it('leave skipped files out and send the others with their action', () => {
    const files = [{ relativePath: 'a.txt' }, { relativePath: 'b.txt' }, { relativePath: 'c.txt' }, { relativePath: 'd/e.txt' }];
    const choices = new Map<string, ConflictChoice>([
      ['a.txt', 'replace'],
      ['b.txt', 'skip'],
      ['d/e.txt', 'keep-both'],
    ]);
    expect(applyChoices(files, choices)).toEqual([
      { relativePath: 'a.txt', onConflict: 'replace' },
      { relativePath: 'c.txt' },
      { relativePath: 'd/e.txt', onConflict: 'keep-both' },
    ]);
  });
});
