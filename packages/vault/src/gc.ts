// Large short-lived buffers (file reads, sealed and opened blobs, pack spans) are
// collected late by V8: without help a backup or restore sits on hundreds of MiB of
// garbage. The engine asks for a collection after every few MiB of such buffers: a
// young-generation one (a scavenge frees buffers whose handles died young, in well
// under a millisecond) each time, and a full one every FULL_EVERY times for the
// buffers whose handles lived long enough to be promoted. Full collections every time
// cost a third of a first backup's CPU time (see docs/decisions.md).
//
// While a backup runs, the C allocator is asked every RELEASE_EVERY_MS to give the memory
// freed buffers held back to the system (native/release-memory.c); it would otherwise keep
// it for reuse, in every thread's arena.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';
import { loadAddon, MEMORY_HELPER } from './native.js';

// Called bare it collects everything; with { type: 'minor' } only the young generation.
type Collector = (options?: { type: 'minor' }) => void;

let collector: Collector | null | undefined;

const FULL_EVERY = 8;
// How long after a full collection a meter with a slack takes its floor (see GarbageMeter.settle).
const SETTLE_MS = 10;
// Giving memory back costs system time, and page faults when it is used again.
const RELEASE_EVERY_MS = 200;

/**
 * A function that runs a full garbage collection, or null when the runtime refuses.
 * Exposing gc also gives it to worker threads started afterwards (as globalThis.gc).
 */
export function garbageCollector(): Collector | null {
  if (collector !== undefined) return collector;
  const existing = (globalThis as { gc?: Collector }).gc;
  if (existing) return (collector = existing);
  try {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as Collector;
  } catch {
    collector = null;
  }
  return collector;
}

let release: (() => boolean) | null | undefined;

/**
 * A function that gives the C allocator's free memory back to the system, or null where
 * the native helper was not built (the install warns) or cannot load.
 */
export function memoryReleaser(): (() => boolean) | null {
  if (release === undefined) release = loadAddon<{ releaseFreeMemory: () => boolean }>(MEMORY_HELPER)?.releaseFreeMemory ?? null;
  return release;
}

/**
 * Gives the C allocator's free memory back to the system every `everyMs` (from this
 * thread, for all threads) until the returned function is called. Does nothing where the
 * native helper is missing.
 */
export function releaseMemoryPeriodically(everyMs = RELEASE_EVERY_MS): () => void {
  const release = memoryReleaser();
  if (!release) return () => {};
  const timer = setInterval(release, everyMs);
  timer.unref();
  return () => clearInterval(timer);
}

/**
 * Counts bytes of dropped buffers and collects after every `every` bytes: the young
 * generation each time, everything every FULL_EVERY times.
 */
/**
 * Bytes held outside V8's heap: buffers, and the sealed blobs the native codec hands over
 * (external to Node's allocator, so `arrayBuffers` does not count them).
 */
const externalBytes = () => process.memoryUsage().external;

export class GarbageMeter {
  private pending = 0;
  private ticks = 0;
  /** External bytes held after the last full collection (with `slack`). */
  private floor = 0;
  /** Set by a full collection: the floor is taken once V8 has freed its buffers (`settle`). */
  private settling = false;

  private readonly fullEvery: number;
  private readonly slack: number;

  /**
   * A collection after every `every` bytes noted, a full one every `fullEvery`-th time. With
   * `slack`, a young-generation collection after which the process holds more than `slack`
   * bytes of buffers and sealed blobs above what the last full one left is followed by a full
   * one: buffers whose handles were promoted then wait no longer than that.
   */
  constructor(
    private readonly every: number,
    options: { fullEvery?: number; slack?: number } = {},
  ) {
    this.fullEvery = options.fullEvery ?? FULL_EVERY;
    this.slack = options.slack ?? Infinity;
    this.floor = externalBytes();
  }

  /**
   * Collects everything now, and gives what the C allocator then holds free back to the
   * system: after a large tree blob was made (the directory's entries are garbage at once)
   * and when a run ends (its garbage would otherwise wait for the next one's collections).
   */
  collectAll(): void {
    this.pending = 0;
    garbageCollector()?.();
    memoryReleaser()?.();
    this.settle();
  }

  /**
   * After a full collection: the floor is what is held a few milliseconds later, once V8's
   * own thread has freed the dropped buffers, or at the next tick if that comes first.
   * Taken at the next tick only, it counted up to a tick's worth of new garbage as held, and
   * the threshold rose with it.
   */
  private settle(): void {
    this.settling = true;
    if (this.slack === Infinity) return;
    setTimeout(() => {
      if (!this.settling) return;
      this.settling = false;
      this.floor = externalBytes();
    }, SETTLE_MS).unref();
  }

  note(bytes: number): void {
    this.pending += bytes;
    if (this.pending < this.every) return;
    this.pending = 0;
    this.ticks = (this.ticks + 1) % this.fullEvery;
    const gc = garbageCollector();
    if (this.ticks === 0) gc?.();
    else gc?.({ type: 'minor' });
    if (this.slack === Infinity || !gc) return;
    // A floor its timer has not taken yet (a tick came within SETTLE_MS) is taken now.
    const held = externalBytes();
    if (this.settling) {
      this.settling = false;
      this.floor = held;
    }
    if (this.ticks === 0) return this.settle();
    if (held <= this.floor + this.slack) return;
    gc();
    this.settle();
  }
}
