import fs from 'node:fs/promises';
import path from 'node:path';
import type { NativeCodec } from './native.js';
import { decodeEntry } from './background-walk.js';
import { rootName, type SourceEntry, type WalkedEntry, walked, withOpen } from './source.js';

/** One directory as the native codec lists it (list-directory.c), its names in walk order. */
interface Listing {
  names: string[];
  /** kind (0 file, 1 dir, 2 symlink, 3 other), mode, mtimeMs, ctimeMs, inode, uid, gid, size. */
  numbers: Float64Array;
  targets: Record<number, string>;
  /** Entry numbers sorted by name, as walkPaths sorts readdir's answer. */
  order: number[];
}

const FIELDS = 8;
/** Subdirectories being listed ahead of the walk at once. */
const LISTING_AHEAD = 16;

function sorted(listing: Omit<Listing, 'order'>): Listing {
  const { names } = listing;
  const order = names.map((_, i) => i).sort((a, b) => (names[a]! < names[b]! ? -1 : names[a]! > names[b]! ? 1 : 0));
  return { ...listing, order };
}

/**
 * Walks local paths like walkPaths (same entries, same order, same errors) with the
 * native codec listing directories on libuv's pool: no thread of its own, and several
 * directories listed at once (a cold disk serves several inode reads at a time). Listing
 * starts at once, so the walk runs while the repository opens, and keeps at most `ahead`
 * entries listed before the backup takes them. Iterate it once.
 */
export class NativeWalk implements AsyncIterable<SourceEntry> {
  /** Listings done, by directory, waiting for the backup; or the error listing it gave. */
  private readonly ready = new Map<string, Listing | Error>();
  private readonly started = new Map<string, Promise<Listing>>();
  private readyEntries = 0;
  private stopped = false;
  private wakeConsumer: (() => void) | null = null;
  private wakeProducer: (() => void) | null = null;
  private readonly roots: Promise<{ abs: string; name: string; entry: WalkedEntry | null }[]>;

  constructor(
    paths: string[],
    private readonly codec: NativeCodec,
    private readonly ahead = 65_536,
  ) {
    this.roots = (async () => {
      const seen = new Set<string>();
      const roots = [];
      for (const p of paths) {
        const abs = path.resolve(p);
        const name = rootName(abs);
        if (seen.has(name)) throw new Error(`two backup paths share the name "${name}"`);
        seen.add(name);
        roots.push({ abs, name, entry: walked(abs, name, await fs.lstat(abs)) });
      }
      return roots;
    })();
    this.roots.catch(() => {}); // thrown to the backup when it iterates
    void this.produce();
  }

  /** Lists the directories in walk order, each one's subdirectories a few at a time ahead. */
  private async produce(): Promise<void> {
    let roots;
    try {
      roots = await this.roots;
    } catch {
      return;
    }
    for (const root of roots) {
      if (root.entry?.type === 'dir' && !(await this.visit(root.abs))) return;
    }
  }

  private start(abs: string): Promise<Listing> {
    let listing = this.started.get(abs);
    if (!listing) {
      listing = this.codec.listDirectory(abs).then(sorted);
      listing.catch(() => {}); // kept in `ready` when its turn comes
      this.started.set(abs, listing);
    }
    return listing;
  }

  /** Answers false once the walk must stop (an error, or the backup stopped). */
  private async visit(abs: string): Promise<boolean> {
    let listing: Listing;
    try {
      listing = await this.start(abs);
    } catch (err) {
      this.started.delete(abs);
      this.hand(abs, err as Error);
      return false;
    }
    this.started.delete(abs);
    this.hand(abs, listing);
    const dirs = listing.order.filter((i) => listing.numbers[i * FIELDS] === 1).map((i) => `${abs}/${listing.names[i]}`);
    for (let k = 0; k < dirs.length; k++) {
      for (let j = k; j < Math.min(dirs.length, k + LISTING_AHEAD); j++) this.start(dirs[j]!);
      while (this.readyEntries > this.ahead && !this.stopped) await new Promise<void>((resolve) => (this.wakeProducer = resolve));
      if (this.stopped || !(await this.visit(dirs[k]!))) return false;
    }
    return true;
  }

  private hand(abs: string, listing: Listing | Error): void {
    this.ready.set(abs, listing);
    if (!(listing instanceof Error)) this.readyEntries += listing.names.length;
    this.wakeConsumer?.();
    this.wakeConsumer = null;
  }

  private async take(abs: string): Promise<Listing> {
    for (;;) {
      const listing = this.ready.get(abs);
      if (listing) {
        this.ready.delete(abs);
        if (listing instanceof Error) throw listing;
        this.readyEntries -= listing.names.length;
        this.wakeProducer?.();
        this.wakeProducer = null;
        return listing;
      }
      await new Promise<void>((resolve) => (this.wakeConsumer = resolve));
    }
  }

  private async *walkDir(abs: string, rel: string): AsyncGenerator<SourceEntry> {
    const listing = await this.take(abs);
    for (const i of listing.order) {
      const name = listing.names[i]!;
      const entry = decodeEntry(listing.numbers, i, `${rel}/${name}`, listing.targets);
      if (!entry) continue;
      if (entry.type === 'file') entry.file = `${abs}/${name}`;
      yield withOpen(entry);
      if (entry.type === 'dir') yield* this.walkDir(`${abs}/${name}`, `${rel}/${name}`);
    }
  }

  async *[Symbol.asyncIterator](): AsyncGenerator<SourceEntry> {
    if (this.stopped) return; // closed before it was iterated
    try {
      for (const { abs, name, entry } of await this.roots) {
        if (!entry) continue;
        yield withOpen(entry);
        if (entry.type === 'dir') yield* this.walkDir(abs, name);
      }
    } finally {
      await this.close();
    }
  }

  /** Stops listing ahead (done by the iteration itself when it ends). */
  async close(): Promise<void> {
    this.stopped = true;
    this.wakeProducer?.();
    this.wakeProducer = null;
  }
}
