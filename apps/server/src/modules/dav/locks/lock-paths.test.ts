import { describe, expect, it } from 'vitest';
import { rootSegment } from './lock-paths.js';
import { commonFolder } from './lock-rules.js';

describe('lock path helpers', () => {
  it('rootSegment names the first segment of a tree path', () => {
    expect(rootSegment('/팀/a/b')).toBe('팀');
    expect(rootSegment('/팀')).toBe('팀');
    expect(rootSegment('/')).toBe('');
    expect(rootSegment('')).toBe('');
  });

  it('commonFolder is the deepest path holding every one, by whole segments', () => {
    expect(commonFolder(['/a/b/c', '/a/b/d', '/a/b'])).toBe('/a/b');
    expect(commonFolder(['/a/bc', '/a/b'])).toBe('/a');
    expect(commonFolder(['/a/b/c'])).toBe('/a/b/c');
    expect(commonFolder(['/a/x/1', '/a/y/2', '/a/x/3'])).toBe('/a');
    expect(commonFolder(['/a', '/b'])).toBe('');
  });
});
