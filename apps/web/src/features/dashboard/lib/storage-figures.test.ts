import { describe, expect, it } from 'vitest';
import { backendCapacity, rootBars } from './storage-figures';

const backend = { backend: 'server' as const, used: 250, limit: null, free: null, disk: null, roots: 1 };

describe('storage figures', () => {
  it('measures a backend against its limit first, then its disk', () => {
    expect(backendCapacity({ ...backend, limit: 1000, disk: { total: 10_000, free: 5000 } })).toEqual({ capacity: 1000, percent: 25 });
    expect(backendCapacity({ ...backend, disk: { total: 10_000, free: 5000 } })).toEqual({ capacity: 10_000, percent: 2.5 });
    expect(backendCapacity(backend)).toEqual({ capacity: null, percent: null });
    expect(backendCapacity({ ...backend, used: 5000, limit: 1000 }).percent).toBe(100);
  });

  it('stacks the room left under a root limit after its usage', () => {
    expect(
      rootBars([
        { name: 'A', path: '/A', backend: 'server', usage: 30, volume: 100 },
        { name: 'B', path: '/B', backend: 'cloud', usage: 30, volume: null },
        { name: 'C', path: '/C', backend: 'server', usage: 300, volume: 100 },
      ]),
    ).toEqual([
      { name: 'A', used: 30, free: 70 },
      { name: 'B', used: 30, free: 0 },
      { name: 'C', used: 300, free: 0 },
    ]);
  });
});
