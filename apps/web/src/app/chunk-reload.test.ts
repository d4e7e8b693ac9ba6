import { describe, expect, it } from 'vitest';
import { isChunkLoadError, mayReloadAt } from './chunk-reload';

describe('chunk load errors', () => {
  it('recognises the messages of Chromium, Safari and Firefox', () => {
    expect(isChunkLoadError(new TypeError('Failed to fetch dynamically imported module: /assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new TypeError('Importing a module script failed.'))).toBe(true);
    expect(isChunkLoadError(new TypeError('error loading dynamically imported module: /assets/a.js'))).toBe(true);
    expect(isChunkLoadError(new Error('Something else'))).toBe(false);
    expect(isChunkLoadError({ status: 404 })).toBe(false);
  });

  it('reloads at most once per minute', () => {
    expect(mayReloadAt(1_000_000, null)).toBe(true);
    expect(mayReloadAt(1_000_000, 1_000_000 - 59_999)).toBe(false);
    expect(mayReloadAt(1_000_000, 1_000_000 - 60_000)).toBe(true);
    expect(mayReloadAt(1_000_000, Number.NaN)).toBe(true);
  });
});
