import { describe, expect, it } from 'vitest';
import { backendGauge, rootBars } from './storage-figures';

const GB = 1e9;
const backend = { backend: 'server' as const, used: 5 * 1024, limit: null, free: null, disk: null, roots: 1 };

describe('storage figures', () => {
  it("reads the disk as df does, whatever Bogwan's share of it", () => {
    // 252 GB with 73 GB free: 71 % full though Bogwan keeps 5 KB there (it once read 0.0 %).
    const disk = { total: 252 * GB, used: 179 * GB, free: 73 * GB };
    const gauge = backendGauge({ ...backend, disk });
    expect(gauge.basis).toBe('disk');
    expect(gauge.percent!.toFixed(1)).toBe('71.0');
    // A root limit does not change what the disk gauge says.
    expect(backendGauge({ ...backend, limit: 10_000, disk }).percent!.toFixed(1)).toBe('71.0');
  });

  it('measures a backend without a disk against its limits, and not at all when unlimited', () => {
    expect(backendGauge({ ...backend, backend: 'cloud', used: 250, limit: 1000 })).toEqual({ basis: 'limit', percent: 25 });
    expect(backendGauge({ ...backend, backend: 'cloud', used: 5000, limit: 1000 }).percent).toBe(100);
    expect(backendGauge({ ...backend, backend: 'cloud' })).toEqual({ basis: null, percent: null });
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
