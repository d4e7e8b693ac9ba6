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

  it('stacks live files, versions and trash, then the room left under a root limit', () => {
    const parts = (live: number, versions: number, trash: number) => ({ breakdown: { live, versions, trash }, usage: live + versions + trash });
    expect(
      rootBars([
        { name: 'A', path: '/A', backend: 'server', volume: 100, ...parts(20, 6, 4) },
        { name: 'B', path: '/B', backend: 'cloud', volume: null, ...parts(30, 0, 0) },
        { name: 'C', path: '/C', backend: 'server', volume: 100, ...parts(200, 60, 40) },
      ]),
    ).toEqual([
      { name: 'A', live: 20, versions: 6, trash: 4, free: 70 },
      { name: 'B', live: 30, versions: 0, trash: 0, free: 0 },
      { name: 'C', live: 200, versions: 60, trash: 40, free: 0 },
    ]);
  });
});
