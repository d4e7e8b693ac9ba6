import type { BlobType } from './blob-index.js';
import type { PackEntry } from './pack.js';

// Binary index file, before sealing:
//   "BVX1" | u32 supersededCount | superseded names (32 bytes each)
//   | u32 packCount | per pack: id (32) | u32 n | n × (id 32, type 1, offset 4, length 4, raw 4)
// `superseded` lets prune replace index files without a moment where blobs are unlisted.
const MAGIC = 'BVX1';
const ENTRY = 32 + 1 + 4 + 4 + 4;

/** The packs and blobs that one index file lists. */
export interface IndexContents {
  superseded: string[];
  packs: { id: Buffer; entries: PackEntry[] }[];
}

/**
 * One pack's listing as it appears in an index file: id, count, entries. A writer keeps
 * the packs it has not yet indexed in this form (49 bytes a blob, against ~600 for
 * entry objects with an id buffer each).
 */
export function encodePackListing(id: Buffer, entries: PackEntry[]): Buffer {
  const out = Buffer.alloc(36 + entries.length * ENTRY);
  id.copy(out, 0);
  out.writeUInt32LE(entries.length, 32);
  let at = 36;
  for (const e of entries) {
    e.id.copy(out, at);
    out[at + 32] = e.type;
    out.writeUInt32LE(e.offset, at + 33);
    out.writeUInt32LE(e.length, at + 37);
    out.writeUInt32LE(e.rawLength, at + 41);
    at += ENTRY;
  }
  return out;
}

/** Serialises index contents, followed by pack listings already encoded. */
export function encodeIndex(contents: IndexContents, listings: Buffer[] = []): Buffer {
  const head = Buffer.alloc(4 + 4 + contents.superseded.length * 32 + 4);
  head.write(MAGIC, 0, 'latin1');
  let at = 4;
  head.writeUInt32LE(contents.superseded.length, at);
  at += 4;
  for (const name of contents.superseded) {
    head.write(name, at, 'hex');
    at += 32;
  }
  head.writeUInt32LE(contents.packs.length + listings.length, at);
  return Buffer.concat([head, ...contents.packs.map((pack) => encodePackListing(pack.id, pack.entries)), ...listings]);
}

/** An index file with each pack's listing still encoded: an object per pack, none per blob. */
export interface IndexListings {
  superseded: string[];
  packs: { id: Buffer; count: number; listing: Buffer }[];
}

/** Parses an index file down to its packs; ids and listings are views into `data`. */
export function readIndex(data: Buffer): IndexListings {
  if (data.toString('latin1', 0, 4) !== MAGIC) throw new Error('not an index file');
  let at = 4;
  const superseded: string[] = [];
  const nSuperseded = data.readUInt32LE(at);
  at += 4;
  for (let i = 0; i < nSuperseded; i++, at += 32) superseded.push(data.toString('hex', at, at + 32));
  const nPacks = data.readUInt32LE(at);
  at += 4;
  const packs: IndexListings['packs'] = [];
  for (let p = 0; p < nPacks; p++) {
    const id = data.subarray(at, at + 32);
    const count = data.readUInt32LE(at + 32);
    at += 36;
    packs.push({ id, count, listing: data.subarray(at, at + count * ENTRY) });
    at += count * ENTRY;
  }
  return { superseded, packs };
}

/**
 * Visits each blob of an encoded pack listing: its id is the 32 bytes of `listing` at
 * `at` (copy them to keep them); no object is made per blob.
 */
export function forEachListed(
  listing: Buffer,
  count: number,
  visit: (listing: Buffer, at: number, type: BlobType, offset: number, length: number, rawLength: number) => void,
): void {
  for (let i = 0, at = 0; i < count; i++, at += ENTRY) {
    visit(listing, at, listing[at + 32] as BlobType, listing.readUInt32LE(at + 33), listing.readUInt32LE(at + 37), listing.readUInt32LE(at + 41));
  }
}

/** Parses an index file into entry objects; entry ids are views into `data`. */
export function decodeIndex(data: Buffer): IndexContents {
  const { superseded, packs } = readIndex(data);
  return {
    superseded,
    packs: packs.map(({ id, count, listing }) => {
      const entries: PackEntry[] = [];
      forEachListed(listing, count, (bytes, at, type, offset, length, rawLength) => {
        entries.push({ id: bytes.subarray(at, at + 32), type, offset, length, rawLength });
      });
      return { id, entries };
    }),
  };
}
