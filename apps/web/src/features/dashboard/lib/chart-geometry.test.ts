import { describe, expect, it } from 'vitest';
import { arcPath, niceMax, ringSegments } from './chart-geometry';

describe('chart geometry', () => {
  it('splits a ring by the parts of a whole, and draws nothing for an empty whole', () => {
    expect(ringSegments([1, 1, 2])).toEqual([
      { start: 0, length: 90 },
      { start: 90, length: 90 },
      { start: 180, length: 180 },
    ]);
    expect(ringSegments([0, 0])).toEqual([
      { start: 0, length: 0 },
      { start: 0, length: 0 },
    ]);
  });

  it('draws a whole ring as an arc just short of the circle', () => {
    const path = arcPath(60, 60, 60, 24, 0, 360);
    expect(path).toMatch(/^M 60.00 0.00 A 60 60 0 1 1 /);
    expect(path).not.toContain('NaN');
  });

  it('tops a count axis with an even number, so its middle tick is a whole count', () => {
    expect(niceMax(0)).toBe(1);
    expect(niceMax(1)).toBe(2);
    expect(niceMax(7)).toBe(8);
    expect(niceMax(8)).toBe(8);
  });
});
