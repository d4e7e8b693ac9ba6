// The in-memory index: blob id → (pack, offset, length). Ids live side by side in
// Buffers and the fields in typed arrays, segment by segment, with an open-addressing
// table of entry numbers on top: about 60 bytes per blob instead of ~200 for a Map of
// hex strings.

/** Kinds of blob stored in packs. */
export enum BlobType {
  Data = 0,
  Tree = 1,
}

/** Where one blob lives. */
export interface BlobLocation {
  type: BlobType;
  pack: Buffer;
  offset: number;
  length: number;
  rawLength: number;
}

const ID = 32;
const EMPTY = -1;
/** Entries live in segments of 2^16: growing adds a segment and never copies the ones there. */
const SEGMENT_BITS = 16;
const SEGMENT = 1 << SEGMENT_BITS;
const IN_SEGMENT = SEGMENT - 1;

/** One segment's entries: ids side by side in a Buffer, the fields in typed arrays. */
class Segment {
  readonly ids: Buffer;
  readonly packOf: Uint32Array;
  readonly offsets: Uint32Array;
  readonly lengths: Uint32Array;
  readonly rawLengths: Uint32Array;
  readonly types: Uint8Array;

  /** A small repository's only segment starts small and doubles up to the full size. */
  constructor(
    readonly capacity: number,
    from?: Segment,
  ) {
    this.ids = Buffer.alloc(capacity * ID);
    this.packOf = new Uint32Array(capacity);
    this.offsets = new Uint32Array(capacity);
    this.lengths = new Uint32Array(capacity);
    this.rawLengths = new Uint32Array(capacity);
    this.types = new Uint8Array(capacity);
    if (!from) return;
    from.ids.copy(this.ids);
    this.packOf.set(from.packOf);
    this.offsets.set(from.offsets);
    this.lengths.set(from.lengths);
    this.rawLengths.set(from.rawLengths);
    this.types.set(from.types);
  }
}

/**
 * Compact id → location table with amortised O(1) insert and lookup. Memory follows the
 * count (49 bytes an entry in segments, 8–16 in the table) and a growing index never
 * holds two copies of its entries: at a million blobs a doubling copy took the peak
 * ~170 MiB above the ~60 MiB the entries need.
 */
export class BlobIndex {
  private segments: Segment[] = [];
  private slots = new Int32Array(0);
  private mask = 0;
  private count = 0;
  private readonly packIds: Buffer[] = [];
  private readonly packNumbers = new Map<string, number>();
  private lastPack: Buffer | null = null;
  private lastPackNumber = -1;

  constructor(expected = 1024) {
    this.reserve(expected);
  }

  /** Number of blobs. */
  get size(): number {
    return this.count;
  }

  /** Forgets every blob and pack. */
  clear(): void {
    this.segments = [];
    this.count = 0;
    this.packIds.length = 0;
    this.packNumbers.clear();
    this.lastPack = null;
    this.lastPackNumber = -1;
    this.slots.fill(EMPTY);
  }

  /** Makes room in the table for `expected` blobs in all, so that adding them rehashes nothing. */
  reserve(expected: number): void {
    // Kept at most half full so probes stay short.
    let tableSize = 32;
    while (tableSize < expected * 2) tableSize *= 2;
    if (tableSize <= this.slots.length) return;
    this.slots = new Int32Array(tableSize).fill(EMPTY);
    this.mask = tableSize - 1;
    for (let n = 0; n < this.count; n++) {
      const segment = this.segments[n >>> SEGMENT_BITS]!;
      this.slots[this.probe(segment.ids, (n & IN_SEGMENT) * ID)] = n;
    }
  }

  // Ids are HMAC outputs, so their first bytes are already uniformly distributed.
  private probe(source: Uint8Array, at: number): number {
    let slot = (source[at]! | (source[at + 1]! << 8) | (source[at + 2]! << 16) | (source[at + 3]! << 24)) & this.mask;
    for (;;) {
      const entry = this.slots[slot]!;
      if (entry === EMPTY || this.sameId(entry, source, at)) return slot;
      slot = (slot + 1) & this.mask;
    }
  }

  private sameId(entry: number, source: Uint8Array, at: number): boolean {
    const ids = this.segments[entry >>> SEGMENT_BITS]!.ids;
    const base = (entry & IN_SEGMENT) * ID;
    for (let k = 0; k < ID; k++) if (ids[base + k] !== source[at + k]) return false;
    return true;
  }

  private segmentOf(n: number): Segment {
    return this.segments[n >>> SEGMENT_BITS]!;
  }

  private packNumber(pack: Buffer): number {
    // Blobs come pack by pack (an index file lists them so): the same Buffer again.
    if (pack === this.lastPack) return this.lastPackNumber;
    const hex = pack.toString('hex');
    let n = this.packNumbers.get(hex);
    if (n === undefined) {
      n = this.packIds.length;
      this.packIds.push(Buffer.from(pack));
      this.packNumbers.set(hex, n);
    }
    this.lastPack = pack;
    this.lastPackNumber = n;
    return n;
  }

  /** Adds a blob; returns false (and changes nothing) when the id is already known. */
  add(id: Uint8Array, loc: BlobLocation): boolean {
    return this.addAt(id, 0, loc.pack, loc.type, loc.offset, loc.length, loc.rawLength);
  }

  /**
   * Adds the blob whose id is the 32 bytes of `source` at `at`, without making an object
   * for it (loading an index adds every blob).
   */
  addAt(source: Uint8Array, at: number, pack: Buffer, type: BlobType, offset: number, length: number, rawLength: number): boolean {
    if (this.slots[this.probe(source, at)] !== EMPTY) return false;
    if ((this.count + 1) * 2 > this.slots.length) this.reserve(this.count + 1);
    const n = this.count++;
    const i = n & IN_SEGMENT;
    if (i === 0) this.segments.push(new Segment(n >= SEGMENT ? SEGMENT : 1024));
    else if (i === this.segmentOf(n).capacity) this.segments.push(new Segment(Math.min(SEGMENT, i * 2), this.segments.pop()));
    const segment = this.segmentOf(n);
    segment.ids.set(source.subarray(at, at + ID), i * ID);
    segment.packOf[i] = this.packNumber(pack);
    segment.offsets[i] = offset;
    segment.lengths[i] = length;
    segment.rawLengths[i] = rawLength;
    segment.types[i] = type;
    this.slots[this.probe(segment.ids, i * ID)] = n;
    return true;
  }

  /** Entry number of a blob, or -1. */
  find(id: Uint8Array): number {
    const slot = this.probe(id, 0);
    return this.slots[slot]!;
  }

  /** True when the blob is stored somewhere. */
  has(id: Uint8Array): boolean {
    return this.find(id) >= 0;
  }

  /** Location of a blob, or null. */
  get(id: Uint8Array): BlobLocation | null {
    const n = this.find(id);
    return n < 0 ? null : this.at(n);
  }

  /** Location of entry number n. */
  at(n: number): BlobLocation {
    const segment = this.segmentOf(n);
    const i = n & IN_SEGMENT;
    return {
      type: segment.types[i] as BlobType,
      pack: this.packIds[segment.packOf[i]!]!,
      offset: segment.offsets[i]!,
      length: segment.lengths[i]!,
      rawLength: segment.rawLengths[i]!,
    };
  }

  /** Offset of entry n in its pack (as at(n).offset, without making an object). */
  offsetAt(n: number): number {
    return this.segmentOf(n).offsets[n & IN_SEGMENT]!;
  }

  /** Stored length of entry n (as at(n).length). */
  lengthAt(n: number): number {
    return this.segmentOf(n).lengths[n & IN_SEGMENT]!;
  }

  /** Length of entry n's contents once opened (as at(n).rawLength). */
  rawLengthAt(n: number): number {
    return this.segmentOf(n).rawLengths[n & IN_SEGMENT]!;
  }

  /** Id of entry number n (a view; copy it to keep it). */
  idAt(n: number): Buffer {
    const at = (n & IN_SEGMENT) * ID;
    return this.segmentOf(n).ids.subarray(at, at + ID);
  }

  /** Pack number of entry n, stable for the life of this index. */
  packNumberAt(n: number): number {
    return this.segmentOf(n).packOf[n & IN_SEGMENT]!;
  }

  /** All pack ids that hold at least one indexed blob. */
  packs(): Buffer[] {
    return this.packIds;
  }
}
