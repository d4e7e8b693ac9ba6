import { NAV_WIDTH_COLLAPSED, NAV_WIDTH_EXPANDED, NAV_WIDTH_MAX } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { clampNavWidth, isNavCollapsed, navWidthStore, setNavWidth, settleNavWidth, toggleNavCollapsed } from './ui';

describe('navigation width', () => {
  it('stays between 56 and 600', () => {
    expect(clampNavWidth(10)).toBe(56);
    expect(clampNavWidth(900)).toBe(NAV_WIDTH_MAX);
    expect(clampNavWidth(300.4)).toBe(300);
  });

  it('snaps to collapsed when released below 180', () => {
    expect(settleNavWidth(179)).toBe(NAV_WIDTH_COLLAPSED);
    expect(settleNavWidth(120)).toBe(NAV_WIDTH_COLLAPSED);
    expect(settleNavWidth(180)).toBe(180);
    expect(isNavCollapsed(NAV_WIDTH_COLLAPSED)).toBe(true);
    expect(isNavCollapsed(NAV_WIDTH_EXPANDED)).toBe(false);
  });

  it('toggles back to the last expanded width', () => {
    expect(navWidthStore.get()).toBe(NAV_WIDTH_EXPANDED);
    setNavWidth(420);
    toggleNavCollapsed();
    expect(navWidthStore.get()).toBe(NAV_WIDTH_COLLAPSED);
    toggleNavCollapsed();
    expect(navWidthStore.get()).toBe(420);
  });
});
