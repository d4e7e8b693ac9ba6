// Large short-lived buffers (file reads, sealed and opened blobs, pack spans) are
// collected late by V8: without help a backup or restore sits on hundreds of MiB of
// garbage. The engine asks for a collection after every few MiB of such buffers.
import { setFlagsFromString } from 'node:v8';
import { runInNewContext } from 'node:vm';

let collector: (() => void) | null | undefined;

/**
 * A function that runs a full garbage collection, or null when the runtime refuses.
 * Exposing gc also gives it to worker threads started afterwards (as globalThis.gc).
 */
export function garbageCollector(): (() => void) | null {
  if (collector !== undefined) return collector;
  const existing = (globalThis as { gc?: () => void }).gc;
  if (existing) return (collector = existing);
  try {
    setFlagsFromString('--expose-gc');
    collector = runInNewContext('gc') as () => void;
  } catch {
    collector = null;
  }
  return collector;
}

/** Counts bytes of dropped buffers and collects after every `every` bytes. */
export class GarbageMeter {
  private pending = 0;
  constructor(private readonly every: number) {}

  note(bytes: number): void {
    this.pending += bytes;
    if (this.pending < this.every) return;
    this.pending = 0;
    garbageCollector()?.();
  }
}
