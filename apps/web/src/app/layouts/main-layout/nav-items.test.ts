import { describe, expect, it } from 'vitest';
import { MENU_ITEMS, STORAGE_ITEM, isCurrent } from './nav-items';

describe('isCurrent', () => {
  const home = MENU_ITEMS[0]!;

  it('marks home at / and /home', () => {
    expect(isCurrent(home, '/')).toBe(true);
    expect(isCurrent(home, '/home')).toBe(true);
    expect(isCurrent(home, '/recent')).toBe(false);
  });

  it('marks storage below its path', () => {
    expect(isCurrent(STORAGE_ITEM, '/storage')).toBe(true);
    expect(isCurrent(STORAGE_ITEM, '/storage/a/b/')).toBe(true);
    expect(isCurrent(STORAGE_ITEM, '/storagex')).toBe(false);
  });
});
