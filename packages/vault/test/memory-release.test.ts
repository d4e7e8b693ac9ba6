// The native helper gives memory the C allocator keeps after buffers are freed back to the
// system: a backup's peak memory rests on it (gc.ts).
import { execFileSync } from 'node:child_process';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';
import { memoryReleaser } from '../src/gc.js';
import { MEMORY_HELPER } from '../src/native.js';

// Where it was not built (no compiler), the engine runs without it; CI must have it.
const built = memoryReleaser() !== null;

describe('memory release', () => {
  it.skipIf(!built && !process.env.CI)('gives back what freed buffers left in the allocator, in a process of its own', () => {
    // 100 MiB in 32 KiB buffers (from the allocator's heap, not mapped one by one), each
    // followed by a small buffer that stays: freeing the large ones leaves holes the
    // allocator keeps, until the helper gives them back.
    const script = `
      const { releaseFreeMemory } = require(${JSON.stringify(fileURLToPath(MEMORY_HELPER))});
      const rss = () => process.memoryUsage().rss;
      let big = [];
      const keep = [];
      for (let i = 0; i < 3200; i++) { big.push(Buffer.allocUnsafeSlow(32 * 1024).fill(1)); keep.push(Buffer.allocUnsafeSlow(64).fill(2)); }
      big = null; gc(); gc();
      // Backing stores may be freed just after the collection, off this thread.
      setTimeout(() => {
        const freed = rss();
        const released = releaseFreeMemory();
        console.log(JSON.stringify({ freed, after: rss(), released, kept: keep.length }));
      }, 100);`;
    const out = JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script], { encoding: 'utf8' })) as {
      freed: number;
      after: number;
      released: boolean;
    };
    expect(out.released).toBe(true);
    expect(out.freed - out.after).toBeGreaterThan(60 * 1024 * 1024);
  });

  it.skipIf(!built && !process.env.CI)('once tuned, gives back freed blocks of 1 MiB or more at once, with no release asked for', () => {
    // One 2 MiB block freed first: untuned, glibc then raises its mapping threshold above
    // 2 MiB, so the blocks after it come from the heap and stay there when freed (between
    // the small buffers kept). Tuned, each is mapped for itself and unmapped when freed.
    const script = `
      const helper = require(${JSON.stringify(fileURLToPath(MEMORY_HELPER))});
      const tuned = process.argv[1] === 'tuned' && helper.tuneAllocator(1024 * 1024);
      const rss = () => process.memoryUsage().rss;
      let first = Buffer.allocUnsafeSlow(2 * 1024 * 1024).fill(1);
      first = null; gc(); gc();
      let big = [];
      const keep = [];
      for (let i = 0; i < 60; i++) { big.push(Buffer.allocUnsafeSlow(2 * 1024 * 1024).fill(1)); keep.push(Buffer.allocUnsafeSlow(4096).fill(2)); }
      const held = rss();
      big = null; gc(); gc();
      setTimeout(() => console.log(JSON.stringify({ tuned, given: held - rss(), kept: keep.length })), 100);`;
    const run = (mode: string) =>
      JSON.parse(execFileSync(process.execPath, ['--expose-gc', '-e', script, mode], { encoding: 'utf8' })) as { tuned: boolean; given: number };
    const tuned = run('tuned');
    expect(tuned.tuned).toBe(true);
    expect(tuned.given).toBeGreaterThan(100 * 1024 * 1024);
    // The same without tuning keeps a good part of it (about half on glibc 2.36): what the tuning is for.
    expect(run('default').given).toBeLessThan(tuned.given - 32 * 1024 * 1024);
  });
});
