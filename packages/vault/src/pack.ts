import { createHash, randomInt } from 'node:crypto';
import { BlobType } from './blob-index.js';
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

/** A finished pack ready to upload. */
export interface FinishedPack {
  id: Buffer;
  data: Buffer;
  entries: PackEntry[];
}

/** Path of a pack in the repository. */
export function packName(id: Buffer | string): string {
  const hex = typeof id === 'string' ? id : id.toString('hex');
  return `data/${hex.slice(0, 2)}/${hex}`;
}

/** Collects sealed blobs and lays them out, shuffled, into one pack. */
export class PackBuilder {
  private readonly blobs: { id: Buffer; type: BlobType; sealed: Buffer; rawLength: number }[] = [];
  private bytes = 0;

  /** Bytes added so far. */
  get size(): number {
    return this.bytes;
  }

  /** Number of blobs added so far. */
  get count(): number {
    return this.blobs.length;
  }

  add(id: Buffer, type: BlobType, sealed: Buffer, rawLength: number): void {
    this.blobs.push({ id, type, sealed, rawLength });
    this.bytes += sealed.length;
  }

  /** Shuffles the blobs (so sizes and order reveal less), seals the header and names the pack. */
  finish(encKey: Buffer): FinishedPack {
    const blobs = this.blobs;
    for (let i = blobs.length - 1; i > 0; i--) {
      const j = randomInt(i + 1);
      [blobs[i], blobs[j]] = [blobs[j]!, blobs[i]!];
    }
    const header = Buffer.alloc(blobs.length * ENTRY);
    const entries: PackEntry[] = [];
    let offset = 0;
    blobs.forEach((blob, i) => {
      const at = i * ENTRY;
      header[at] = blob.type;
      blob.id.copy(header, at + 1);
      header.writeUInt32LE(blob.sealed.length, at + 33);
      header.writeUInt32LE(blob.rawLength, at + 37);
      entries.push({ id: blob.id, type: blob.type, offset, length: blob.sealed.length, rawLength: blob.rawLength });
      offset += blob.sealed.length;
    });
    const sealedHeader = sealBlob(encKey, HEADER_ID, header, false);
    const trailer = Buffer.alloc(4);
    trailer.writeUInt32LE(sealedHeader.length);
    const data = Buffer.concat([...blobs.map((b) => b.sealed), sealedHeader, trailer]);
    const id = createHash('sha256').update(data).digest();
    return { id, data, entries };
  }
}

/** Reads the header from the tail of a pack (the whole pack or just its end). */
export function parsePackHeader(encKey: Buffer, tail: Buffer, packSize: number): PackEntry[] {
  if (tail.length < 4) throw new Error('pack too short');
  const headerLength = tail.readUInt32LE(tail.length - 4);
  if (headerLength + 4 > tail.length || headerLength + 4 > packSize) throw new Error('pack header length out of range');
  const sealed = tail.subarray(tail.length - 4 - headerLength, tail.length - 4);
  const header = openBlob(encKey, HEADER_ID, sealed);
  if (header.length % ENTRY !== 0) throw new Error('pack header malformed');
  const entries: PackEntry[] = [];
  let offset = 0;
  for (let at = 0; at < header.length; at += ENTRY) {
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
  if (offset + headerLength + 4 !== packSize) throw new Error('pack size does not match its header');
  return entries;
}

/** The sha256 name check for a downloaded pack. */
export function packHashMatches(id: string, data: Buffer): boolean {
  return createHash('sha256').update(data).digest('hex') === id;
}
