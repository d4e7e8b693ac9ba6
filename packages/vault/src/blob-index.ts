// The in-memory index: blob id → (pack, offset, length). Ids live side by side in one
// Buffer and the fields in typed arrays, with an open-addressing table of entry
// numbers on top: about 60 bytes per blob instead of ~200 for a Map of hex strings.

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

/** Compact id → location table with amortised O(1) insert and lookup. */
export class BlobIndex {
  private ids = Buffer.alloc(0);
  private packOf = new Uint32Array(0);
  private offsets = new Uint32Array(0);
  private lengths = new Uint32Array(0);
  private rawLengths = new Uint32Array(0);
  private types = new Uint8Array(0);
  private slots = new Int32Array(0);
  private mask = 0;
  private count = 0;
  private readonly packIds: Buffer[] = [];
  private readonly packNumbers = new Map<string, number>();
  private lastPack: Buffer | null = null;
  private lastPackNumber = -1;

  constructor(expected = 1024) {
    this.grow(Math.max(16, expected));
  }

  /** Number of blobs. */
  get size(): number {
    return this.count;
  }

  private grow(capacity: number): void {
    const copy = <T extends Uint32Array | Uint8Array>(old: T, make: (n: number) => T): T => {
      const next = make(capacity);
      next.set(old.subarray(0, this.count));
      return next;
    };
    const ids = Buffer.alloc(capacity * ID);
    this.ids.copy(ids, 0, 0, this.count * ID);
    this.ids = ids;
    this.packOf = copy(this.packOf, (n) => new Uint32Array(n));
    this.offsets = copy(this.offsets, (n) => new Uint32Array(n));
    this.lengths = copy(this.lengths, (n) => new Uint32Array(n));
    this.rawLengths = copy(this.rawLengths, (n) => new Uint32Array(n));
    this.types = copy(this.types, (n) => new Uint8Array(n));
    // Keep the table at most half full so probes stay short.
    let tableSize = 16;
    while (tableSize < capacity * 2) tableSize *= 2;
    this.slots = new Int32Array(tableSize).fill(EMPTY);
    this.mask = tableSize - 1;
    for (let i = 0; i < this.count; i++) this.slots[this.probe(this.ids, i * ID)] = i;
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
    const base = entry * ID;
    for (let k = 0; k < ID; k++) if (this.ids[base + k] !== source[at + k]) return false;
    return true;
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
    if (this.count * ID >= this.ids.length) this.grow(this.count * 2);
    const n = this.count++;
    this.ids.set(source.subarray(at, at + ID), n * ID);
    this.packOf[n] = this.packNumber(pack);
    this.offsets[n] = offset;
    this.lengths[n] = length;
    this.rawLengths[n] = rawLength;
    this.types[n] = type;
    this.slots[this.probe(this.ids, n * ID)] = n;
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
    return {
      type: this.types[n] as BlobType,
      pack: this.packIds[this.packOf[n]!]!,
      offset: this.offsets[n]!,
      length: this.lengths[n]!,
      rawLength: this.rawLengths[n]!,
    };
  }

  /** Offset of entry n in its pack (as at(n).offset, without making an object). */
  offsetAt(n: number): number {
    return this.offsets[n]!;
  }

  /** Stored length of entry n (as at(n).length). */
  lengthAt(n: number): number {
    return this.lengths[n]!;
  }

  /** Length of entry n's contents once opened (as at(n).rawLength). */
  rawLengthAt(n: number): number {
    return this.rawLengths[n]!;
  }

  /** Id of entry number n (a view; copy it to keep it). */
  idAt(n: number): Buffer {
    return this.ids.subarray(n * ID, n * ID + ID);
  }

  /** Pack number of entry n, stable for the life of this index. */
  packNumberAt(n: number): number {
    return this.packOf[n]!;
  }

  /** All pack ids that hold at least one indexed blob. */
  packs(): Buffer[] {
    return this.packIds;
  }
}
