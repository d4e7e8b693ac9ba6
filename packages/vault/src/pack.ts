import { createHash, randomInt } from 'node:crypto';
import { BlobType } from './blob-index.js';
import type { Spool } from './backend/backend.js';
import { openBlob, sealBlob } from './codec.js';

// Pack layout: sealed blobs back to back | sealed header | header length (u32 LE).
// The header lists (type, id, length, raw length) in blob order; offsets follow from
// the lengths. The pack's name is the SHA-256 of its bytes, so `check` can verify a
// pack without the key and a damaged pack never looks like a valid one.
const HEADER_ID = Buffer.from('pack-header');
const ENTRY = 1 + 32 + 4 + 4;

/** One blob inside a pack. */
export interface PackEntry {
  id: Buffer;
  type: BlobType;
  offset: number;
  length: number;
  rawLength: number;
}

/** A pack whose bytes are all written to its spool, ready to be stored under its name. */
export interface FinishedPack {
  id: Buffer;
  /** Bytes in all (blobs, sealed header and trailer). */
  size: number;
  /** Its blobs, made from the header on demand (the pack keeps the header, not an object per blob). */
  entries: () => PackEntry[];
  spool: Spool;
}

/** Path of a pack in the repository. */
export function packName(id: Buffer | string): string {
  const hex = typeof id === 'string' ? id : id.toString('hex');
  return `data/${hex.slice(0, 2)}/${hex}`;
}

interface WaitingBlob {
  id: Buffer;
  type: BlobType;
  /** The sealed blob's pieces, laid out back to back. */
  sealed: Buffer[];
  length: number;
  rawLength: number;
}

// Blobs wait in a window this big and leave it in random order, so the order in a pack
// does not follow the order of the files. A whole-pack shuffle would need the whole pack
// in memory; the header that tells where blobs start is encrypted anyway.
// A window of small blobs is bounded by count too: 4 MiB of one-chunk files of a few hundred
// bytes was ~36,000 blobs, each an object with two buffers (~14 MiB of JS heap).
const SHUFFLE_WINDOW = 4 * 1024 * 1024;
const SHUFFLE_BLOBS = 4096;
// Bytes collected before one write to the spool.
const WRITE_BATCH = 1024 * 1024;

/**
 * Lays sealed blobs out into one pack, streaming them to a spool (local disk) as they
 * come: memory holds the shuffle window and one write batch, never the pack.
 */
export class PackBuilder {
  /** The blobs laid out so far, as the header lists them (ENTRY bytes each): no object per blob. */
  private header = Buffer.allocUnsafe(ENTRY * 1024);
  private laidOut = 0;
  private readonly window: WaitingBlob[] = [];
  private windowBytes = 0;
  /** Bytes laid out so far (written or in the current batch): the next blob's offset. */
  private offset = 0;
  private batch: Buffer[] = [];
  private batchBytes = 0;
  private readonly hash = createHash('sha256');
  private spool: Promise<Spool> | null = null;
  private readonly writes = new Set<Promise<void>>();
  private failure: unknown = null;

  constructor(private readonly openSpool: () => Promise<Spool>) {}

  /** Bytes added so far. */
  get size(): number {
    return this.offset + this.windowBytes;
  }

  /** Number of blobs added so far. */
  get count(): number {
    return this.laidOut + this.window.length;
  }

  /** Adds a sealed blob, given in pieces; resolves once the bytes it pushed out of memory are written. */
  async add(id: Buffer, type: BlobType, sealed: Buffer[], rawLength: number): Promise<void> {
    const length = sealed.reduce((sum, piece) => sum + piece.length, 0);
    this.window.push({ id, type, sealed, length, rawLength });
    this.windowBytes += length;
    while (this.windowBytes > SHUFFLE_WINDOW || this.window.length > SHUFFLE_BLOBS) this.layOut(randomInt(this.window.length));
    await this.settle();
  }

  /** Lays out what is left, seals the header and names the pack; all bytes are written. */
  async finish(encKey: Buffer): Promise<FinishedPack> {
    while (this.window.length > 0) this.layOut(randomInt(this.window.length));
    const header = this.header.subarray(0, this.laidOut * ENTRY);
    const sealedHeader = sealBlob(encKey, HEADER_ID, header, false);
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32LE(sealedHeader.length);
    this.append(sealedHeader);
    this.append(trailer);
    this.flush();
    while (this.writes.size > 0) await Promise.all([...this.writes]);
    if (this.failure) throw this.failure;
    return { id: this.hash.digest(), size: this.offset, entries: () => headerEntries(header).entries, spool: await this.spool! };
  }

  /** Drops whatever was written (a failed or abandoned pack). */
  async discard(): Promise<void> {
    await Promise.allSettled([...this.writes]);
    if (this.spool) await (await this.spool).discard();
  }

  private layOut(i: number): void {
    const last = this.window.pop()!;
    const blob = i < this.window.length ? this.window.splice(i, 1, last)[0]! : last;
    this.windowBytes -= blob.length;
    if ((this.laidOut + 1) * ENTRY > this.header.length) {
      const larger = Buffer.allocUnsafe(this.header.length * 2);
      this.header.copy(larger);
      this.header = larger;
    }
    const at = this.laidOut++ * ENTRY;
    this.header[at] = blob.type;
    blob.id.copy(this.header, at + 1);
    this.header.writeUInt32LE(blob.length, at + 33);
    this.header.writeUInt32LE(blob.rawLength, at + 37);
    for (const piece of blob.sealed) this.append(piece);
  }

  private append(bytes: Buffer): void {
    this.hash.update(bytes);
    this.batch.push(bytes);
    this.batchBytes += bytes.length;
    this.offset += bytes.length;
    if (this.batchBytes >= WRITE_BATCH) this.flush();
  }

  private flush(): void {
    if (this.batchBytes === 0) return;
    const pieces = this.batch;
    const at = this.offset - this.batchBytes;
    this.batch = [];
    this.batchBytes = 0;
    this.spool ??= this.openSpool();
    const write = this.spool
      .then((spool) => spool.write(pieces, at))
      .catch((err) => {
        this.failure ??= err;
      });
    this.writes.add(write);
    void write.finally(() => this.writes.delete(write));
  }

  private async settle(): Promise<void> {
    while (this.writes.size > 1) await Promise.race(this.writes);
    if (this.failure) throw this.failure;
  }
}

/** The most bytes of a pack read at once by restore and check (a bigger blob is one span). */
export const SPAN_MAX = 4 * 1024 * 1024;

/** Blobs that lie together in a pack, and the range of the pack they take. */
export interface Span<T> {
  items: T[];
  start: number;
  length: number;
}

/**
 * Groups blobs sorted by offset into spans of at most SPAN_MAX bytes of the pack (a blob
 * bigger than that forms a span of its own), for reading a pack in pieces.
 */
export function spans<T>(sorted: T[], extent: (item: T) => { offset: number; length: number }): Span<T>[] {
  const out: Span<T>[] = [];
  for (let from = 0; from < sorted.length;) {
    const start = extent(sorted[from]!).offset;
    let end = start + extent(sorted[from]!).length;
    let to = from + 1;
    while (to < sorted.length) {
      const next = extent(sorted[to]!);
      if (next.offset + next.length - start > SPAN_MAX) break;
      end = next.offset + next.length;
      to++;
    }
    out.push({ items: sorted.slice(from, to), start, length: end - start });
    from = to;
  }
  return out;
}

/** Reads the header from the tail of a pack (the whole pack or just its end). */
export function parsePackHeader(encKey: Buffer, tail: Buffer, packSize: number): PackEntry[] {
  if (tail.length < 4) throw new Error('pack too short');
  const headerLength = tail.readUInt32LE(tail.length - 4);
  if (headerLength + 4 > tail.length || headerLength + 4 > packSize) throw new Error('pack header length out of range');
  const sealed = tail.subarray(tail.length - 4 - headerLength, tail.length - 4);
  const header = openBlob(encKey, HEADER_ID, sealed);
  if (header.length % ENTRY !== 0) throw new Error('pack header malformed');
  const { entries, end } = headerEntries(header);
  if (end + headerLength + 4 !== packSize) throw new Error('pack size does not match its header');
  return entries;
}

/** The blobs a (plain) pack header lists, with their offsets, and where the last one ends. */
function headerEntries(header: Buffer): { entries: PackEntry[]; end: number } {
  const entries: PackEntry[] = [];
  let offset = 0;
  for (let at = 0; at + ENTRY <= header.length; at += ENTRY) {
    const length = header.readUInt32LE(at + 33);
    entries.push({
      type: header[at] as BlobType,
      id: Buffer.from(header.subarray(at + 1, at + 33)),
      offset,
      length,
      rawLength: header.readUInt32LE(at + 37),
    });
    offset += length;
  }
  return { entries, end: offset };
}

/** The sha256 name check for a downloaded pack. */
export function packHashMatches(id: string, data: Buffer): boolean {
  return createHash('sha256').update(data).digest('hex') === id;
}
