import { describe, expect, it } from 'vitest';
import { clickSelection, EMPTY_SELECTION } from './selection';
import { usagePercent } from './format';
import { ancestorsOf, parentOf, storageHref, storagePathFromSplat } from './storage-path';

const paths = ['/T/a', '/T/b', '/T/c', '/T/d', '/T/e'];
const at = (i: number) => paths[i];
const plain = { toggle: false, range: false };

describe('clickSelection', () => {
  it('a plain click selects one entry', () => {
    const next = clickSelection(EMPTY_SELECTION, 1, '/T/b', plain, at);
    expect([...next.paths]).toEqual(['/T/b']);
    expect(next.anchor).toBe(1);
  });

  it('ctrl toggles and shift selects a range from the anchor', () => {
    let s = clickSelection(EMPTY_SELECTION, 1, '/T/b', plain, at);
    s = clickSelection(s, 3, '/T/d', { toggle: true, range: false }, at);
    expect([...s.paths].sort()).toEqual(['/T/b', '/T/d']);
    s = clickSelection(s, 3, '/T/d', { toggle: true, range: false }, at);
    expect([...s.paths]).toEqual(['/T/b']);
    s = clickSelection(s, 4, '/T/e', { toggle: false, range: true }, at);
    expect([...s.paths].sort()).toEqual(['/T/d', '/T/e']);
    s = clickSelection({ paths: new Set(['/T/a']), anchor: 2 }, 0, '/T/a', { toggle: false, range: true }, at);
    expect([...s.paths].sort()).toEqual(['/T/a', '/T/b', '/T/c']);
  });
});

describe('formatting', () => {
  it('shows usage with two decimals', () => {
    expect(usagePercent(1, 3)).toBe('33.33');
    expect(usagePercent(5, null)).toBeNull();
  });
});

describe('storage paths', () => {
  it('maps URLs to paths and back', () => {
    expect(storagePathFromSplat('')).toBe('/');
    expect(storagePathFromSplat('%EB%AC%B8%EC%84%9C/A%20B/')).toBe('/문서/A B');
    expect(storagePathFromSplat('a/%2e%2e')).toBeNull();
    expect(storageHref('/문서/A B')).toBe('/storage/%EB%AC%B8%EC%84%9C/A%20B');
    expect(parentOf('/A')).toBe('/');
    expect(parentOf('/A/B/c.txt')).toBe('/A/B');
    expect(ancestorsOf('/A/B')).toEqual(['/A', '/A/B']);
  });
});
