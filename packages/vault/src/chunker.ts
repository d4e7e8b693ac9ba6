import { createHmac } from 'node:crypto';
import { CHUNKER_WASM } from './chunker-wasm.js';

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
    createHmac('sha256', seed)
      .update(`gear ${block}`)
      .digest()
      .copy(bytes, block * 32);
  }
  for (let i = 0; i < 256; i++) table[i] = bytes.readUInt32LE(i * 4);
  return table;
}

// The gear scan runs in WebAssembly (chunker.wat): three to four times as fast as the same
// loop in JavaScript here, and it is the backup's hottest loop. Compiled once per process.
const TABLE_BYTES = 1024;
const PAGE = 65536;

/** What the chunker uses of the WebAssembly API (the project's types leave it out). */
interface Wasm {
  Module: new (bytes: Uint8Array) => object;
  Instance: new (module: object) => { exports: unknown };
}
const { WebAssembly: wasm } = globalThis as unknown as { WebAssembly: Wasm };
let compiled: object | null = null;

interface ScanExports {
  memory: { buffer: ArrayBuffer; grow(pages: number): number };
  hash: { value: number };
  scan(p: number, normal: number, end: number, hash: number, maskS: number, maskL: number): number;
}

function scanner(gear: Uint32Array, maxScan: number): ScanExports {
  compiled ??= new wasm.Module(Buffer.from(CHUNKER_WASM, 'base64'));
  const exports = new wasm.Instance(compiled).exports as ScanExports;
  const needed = Math.ceil((TABLE_BYTES + maxScan) / PAGE) - exports.memory.buffer.byteLength / PAGE;
  if (needed > 0) exports.memory.grow(needed);
  const table = new DataView(exports.memory.buffer, 0, TABLE_BYTES);
  for (let i = 0; i < 256; i++) table.setUint32(i * 4, gear[i]!, true);
  return exports;
}

function maskWithBits(bits: number): number {
  // The top bits of a gear hash depend on the last 32 bytes; the low bits on only a few.
  return bits >= 32 ? 0xffffffff : (0xffffffff << (32 - bits)) >>> 0;
}

/**
 * FastCDC with normalised chunking: a stricter mask before the average size and a
 * looser one after it pulls chunk sizes towards the average.
 *
 * Fed in pieces, it resumes: when a call ends without a boundary (more input needed),
 * the position and hash reached are kept, and the next call for the same chunk goes on
 * from there instead of scanning its bytes again. Call `reset()` before a new stream.
 */
export class Chunker {
  private readonly maskS: number;
  private readonly maskL: number;
  /** Offset from the chunk's start scanned so far, and the hash there; -1 when none. */
  private resumeAt = -1;
  private resumeHash = 0;
  private readonly wasm: ScanExports;
  private readonly memory: Uint8Array;

  constructor(
    gear: Uint32Array,
    private readonly params: ChunkerParams,
  ) {
    const bits = Math.round(Math.log2(params.avg));
    // As signed 32-bit values, the way WebAssembly's i32 takes them.
    this.maskS = maskWithBits(Math.min(bits + 2, 31)) | 0;
    this.maskL = maskWithBits(Math.max(bits - 2, 1)) | 0;
    this.wasm = scanner(gear, params.max);
    this.memory = new Uint8Array(this.wasm.memory.buffer);
  }

  /** Forgets a scan in progress (a new file, or a stream given up half way). */
  reset(): void {
    this.resumeAt = -1;
  }

  /**
   * Returns the length of the next chunk at `start` of `data`, or -1 when more input is
   * needed to decide (and `final` is false). After -1, the next call must be for the
   * same chunk: its bytes from `start` on unchanged, with more appended.
   */
  cut(data: Uint8Array, start: number, end: number, final: boolean): number {
    const { min, max } = this.params;
    const available = end - start;
    if (available <= min) return final ? available : -1;
    const boundary = this.scan(data, start, end);
    if (boundary >= 0) return boundary;
    if (available < max && !final) return -1;
    this.resumeAt = -1;
    return Math.min(available, max);
  }

  private scan(data: Uint8Array, start: number, end: number): number {
    const { min, avg, max } = this.params;
    const limit = Math.min(end - start, max);
    const normal = Math.min(avg, limit);
    const resuming = this.resumeAt >= 0;
    const hash = resuming ? this.resumeHash : 0;
    const from = resuming ? this.resumeAt : min;
    this.resumeAt = -1;
    // Only the bytes not scanned yet are copied in: the hash carries the rest.
    this.memory.set(data.subarray(start + from, start + limit), TABLE_BYTES);
    const stop = TABLE_BYTES + (limit - from);
    const found = this.wasm.scan(TABLE_BYTES, TABLE_BYTES + Math.max(0, normal - from), stop, hash, this.maskS, this.maskL);
    if (found !== 0) return from + (found - TABLE_BYTES);
    if (limit === max) return max;
    this.resumeAt = limit;
    this.resumeHash = this.wasm.hash.value;
    return -1;
  }
}
