import { describe, expect, it, vi } from 'vitest';
import type { RootUsageRepo, RootUsageRow } from './root-usage.repo.js';
import { UsageWatch } from './usage-watch.js';

function watch(rows: RootUsageRow[][], socketCount = () => 1) {
  let call = 0;
  const repo = { roots: async () => rows[Math.min(call++, rows.length - 1)]! } as unknown as RootUsageRepo;
  const emitted: unknown[] = [];
  const sockets = { localSocketCount: socketCount, emitToLocalSockets: (_event: string, payload: unknown) => emitted.push(payload) };
  return { watcher: new UsageWatch(repo, sockets, { warn: vi.fn() } as never), emitted };
}

const root = (id: string, usage: number, limit: number | null = null): RootUsageRow => ({ id, usage_bytes: usage, volume_limit: limit });

describe('usage watch', () => {
  it('takes a baseline first, then names only the roots whose usage or limit changed', async () => {
    const { watcher, emitted } = watch([
      [root('a', 10), root('b', 20)],
      [root('a', 10), root('b', 25)],
      [root('a', 10, 100), root('b', 25)],
      [root('a', 10, 100), root('b', 25)],
    ]);
    expect(await watcher.check()).toEqual([]);
    expect(await watcher.check()).toEqual(['b']);
    expect(await watcher.check()).toEqual(['a']);
    expect(await watcher.check()).toEqual([]);
    expect(emitted).toEqual([{ roots: ['b'] }, { roots: ['a'] }]);
  });

  it('names a root that appeared or went away', async () => {
    const { watcher } = watch([[root('a', 1)], [root('a', 1), root('c', 0)], [root('c', 0)]]);
    await watcher.check();
    expect(await watcher.check()).toEqual(['c']);
    expect(await watcher.check()).toEqual(['a']);
  });

  it('keeps its baseline while no socket is open, so a change made then is told once one opens', async () => {
    vi.useFakeTimers();
    try {
      let sockets = 0;
      const { watcher, emitted } = watch([[root('a', 1)], [root('a', 5)]], () => sockets);
      await watcher.start(1000);
      await vi.advanceTimersByTimeAsync(3000);
      expect(emitted).toEqual([]);
      sockets = 1;
      await vi.advanceTimersByTimeAsync(1000);
      expect(emitted).toEqual([{ roots: ['a'] }]);
      watcher.stop();
    } finally {
      vi.useRealTimers();
    }
  });
});
