// The garbage meter with a slack: buffers whose handles were promoted to the old generation
// and then dropped are collected as soon as they mount up, not only every FULL_EVERY ticks
// (how a large file's chunks stay bounded: backup.ts, LARGE_FILE).
import { describe, expect, it } from 'vitest';
import { GarbageMeter, garbageCollector } from '../src/gc.js';

const MiB = 1024 * 1024;
const buffers = () => process.memoryUsage().arrayBuffers;
/** V8 frees collected buffers on a thread of its own, just after the collection. */
const swept = () => new Promise((resolve) => setTimeout(resolve, 200));

/** 40 MiB of buffers whose handles outlive two young-generation collections, then dropped: garbage in the old generation. */
function promotedGarbage(): void {
  const gc = garbageCollector()!;
  let held: Buffer[] | null = Array.from({ length: 40 }, () => Buffer.alloc(MiB, 1));
  gc({ type: 'minor' });
  gc({ type: 'minor' });
  expect(held.length).toBe(40);
  held = null;
}

describe('GarbageMeter', () => {
  it('with a slack, follows a young-generation collection with a full one once dropped buffers mount up', async () => {
    expect(garbageCollector()).not.toBeNull();
    garbageCollector()!();
    const meter = new GarbageMeter(MiB, { slack: 16 * MiB });
    const before = buffers();
    promotedGarbage();
    meter.note(MiB);
    await swept();
    expect(buffers() - before).toBeLessThan(16 * MiB);
  });

  it('without one, leaves them to the full collection every eighth tick', async () => {
    garbageCollector()!();
    const meter = new GarbageMeter(MiB);
    const before = buffers();
    promotedGarbage();
    meter.note(MiB);
    await swept();
    expect(buffers() - before).toBeGreaterThan(32 * MiB);
    for (let i = 0; i < 7; i++) meter.note(MiB);
    await swept();
    expect(buffers() - before).toBeLessThan(16 * MiB);
  });
});
