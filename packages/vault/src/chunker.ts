import { createHmac } from 'node:crypto';

/** Chunk size bounds in bytes; the average must be a power of two. */
export interface ChunkerParams {
  min: number;
  avg: number;
  max: number;
}

/** ~512 KiB / 1 MiB / 8 MiB: big enough for a small index, small enough to dedup edits. */
export const DEFAULT_CHUNKER: ChunkerParams = { min: 512 * 1024, avg: 1024 * 1024, max: 8 * 1024 * 1024 };

/** Derives the 256-entry gear table from the repository secret (keyed FastCDC). */
export function gearTable(seed: Uint8Array): Uint32Array {
  const table = new Uint32Array(256);
  const bytes = Buffer.alloc(1024);
  for (let block = 0; block < 32; block++) {
    createHmac('sha256', seed).update(`gear ${block}`).digest().copy(bytes, block * 32);
  }
  for (let i = 0; i < 256; i++) table[i] = bytes.readUInt32LE(i * 4);
  return table;
}

function maskWithBits(bits: number): number {
  // The top bits of a gear hash depend on the last 32 bytes; the low bits on only a few.
  return bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
}

/**
 * FastCDC with normalised chunking: a stricter mask before the average size and a
 * looser one after it pulls chunk sizes towards the average.
 */
export class Chunker {
  private readonly maskS: number;
  private readonly maskL: number;

  constructor(
    private readonly gear: Uint32Array,
    private readonly params: ChunkerParams,
  ) {
    const bits = Math.round(Math.log2(params.avg));
    this.maskS = maskWithBits(Math.min(bits + 2, 31));
    this.maskL = maskWithBits(Math.max(bits - 2, 1));
  }

  /**
   * Returns the length of the next chunk at the start of `data`, or -1 when more
   * input is needed to decide (and `final` is false).
   */
  cut(data: Uint8Array, start: number, end: number, final: boolean): number {
    const { min, avg, max } = this.params;
    const available = end - start;
    if (available <= min) return final ? available : -1;
    if (available < max && !final) {
      // Need up to max bytes to be sure where the boundary is.
      const boundary = this.scan(data, start, end, min, avg, max);
      return boundary >= 0 ? boundary : -1;
    }
    const boundary = this.scan(data, start, end, min, avg, max);
    return boundary >= 0 ? boundary : Math.min(available, max);
  }

  private scan(data: Uint8Array, start: number, end: number, min: number, avg: number, max: number): number {
    const gear = this.gear;
    const limit = Math.min(end - start, max);
    const normal = Math.min(avg, limit);
    let hash = 0;
    let i = min;
    const maskS = this.maskS;
    const maskL = this.maskL;
    for (; i < normal; i++) {
      hash = ((hash << 1) + gear[data[start + i]!]!) | 0;
      if ((hash & maskS) === 0) return i + 1;
    }
    for (; i < limit; i++) {
      hash = ((hash << 1) + gear[data[start + i]!]!) | 0;
      if ((hash & maskL) === 0) return i + 1;
    }
    return limit === max ? max : -1;
  }
}
