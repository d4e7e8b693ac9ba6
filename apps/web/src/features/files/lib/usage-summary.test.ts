import { describe, expect, it } from 'vitest';
import { usageSummary } from './usage-summary';

const root = (name: string, usage: number, volume: number | null) => ({
  name,
  path: `/${name}`,
  usage,
  volume,
  breakdown: { live: usage - 2, versions: 1, trash: 1 },
});

describe('usage summary', () => {
  it('measures the roots that have a limit, even when another has none', () => {
    // The server answers total null as soon as one root is unlimited: the bar said "no limit".
    const summary = usageSummary({ roots: [root('팀', 300, 1000), root('공용', 5000, null), root('보관', 100, 1000)], used: 5400, total: null });
    expect(summary).toMatchObject({ used: 400, total: 2000, limitedRoots: 2 });
    expect(summary.roots).toContainEqual({ name: '공용', used: 5000, limit: null, breakdown: { live: 4998, versions: 1, trash: 1 } });
  });

  it('says no limit only when no root has one', () => {
    expect(usageSummary({ roots: [root('A', 10, null), root('B', 20, null)], used: 30, total: null })).toMatchObject({
      used: 30,
      total: null,
      limitedRoots: 0,
    });
    expect(usageSummary({ roots: [], used: 0, total: null })).toMatchObject({ used: 0, total: null, limitedRoots: 0 });
  });
});
