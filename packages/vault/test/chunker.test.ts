import { randomBytes } from 'node:crypto';
import { describe, expect, it } from 'vitest';
import { Chunker, type ChunkerParams, DEFAULT_CHUNKER, gearTable } from '../src/chunker.js';

/** FastCDC over a whole buffer at once, written plainly: the boundaries every repository already has. */
function referenceCuts(data: Uint8Array, gear: Uint32Array, { min, avg, max }: ChunkerParams): number[] {
  const bits = Math.round(Math.log2(avg));
  const mask = (b: number) => (b >= 32 ? 0xffffffff : (0xffffffff << (32 - b)) >>> 0);
  const maskS = mask(Math.min(bits + 2, 31));
  const maskL = mask(Math.max(bits - 2, 1));
  const cuts: number[] = [];
  let start = 0;
  while (start < data.length) {
    const available = data.length - start;
    let length = Math.min(available, max);
    if (available > min) {
      let hash = 0;
      for (let i = min; i < Math.min(available, max); i++) {
        hash = ((hash << 1) + gear[data[start + i]!]!) | 0;
        if ((hash & (i < avg ? maskS : maskL)) === 0) {
          length = i + 1;
          break;
        }
      }
    }
    cuts.push(length);
    start += length;
  }
  return cuts;
}

/** Feeds `data` in pieces of `piece` bytes the way a backup does, collecting chunk lengths. */
function streamedCuts(chunker: Chunker, data: Uint8Array, piece: number): number[] {
  const cuts: number[] = [];
  let buf = Buffer.alloc(0);
  const drain = (final: boolean) => {
    let start = 0;
    for (;;) {
      const cut = chunker.cut(buf, start, buf.length, final);
      if (cut <= 0) break;
      cuts.push(cut);
      start += cut;
    }
    buf = buf.subarray(start);
  };
  chunker.reset();
  for (let at = 0; at < data.length; at += piece) {
    buf = Buffer.concat([buf, data.subarray(at, at + piece)]);
    drain(false);
  }
  if (buf.length > 0) drain(true);
  return cuts;
}

describe('chunker', () => {
  const small: ChunkerParams = { min: 2048, avg: 8192, max: 65536 };
  const gear = gearTable(randomBytes(32));

  it('cuts the same boundaries whatever the size of the pieces it is fed', () => {
    const data = randomBytes(3 * 1024 * 1024);
    const expected = referenceCuts(data, gear, small);
    expect(expected.reduce((a, b) => a + b, 0)).toBe(data.length);
    for (const piece of [1000, 4096, 10_000, 65_536, 1 << 20, data.length]) {
      expect(streamedCuts(new Chunker(gear, small), data, piece)).toEqual(expected);
    }
  });

  it('keeps every chunk within the bounds, and the default sizes near their average', () => {
    const data = Buffer.concat([randomBytes(40 * 1024 * 1024), Buffer.alloc(20 * 1024 * 1024)]);
    const cuts = streamedCuts(new Chunker(gear, DEFAULT_CHUNKER), data, 4 * 1024 * 1024);
    expect(cuts).toEqual(referenceCuts(data, gear, DEFAULT_CHUNKER));
    for (const cut of cuts.slice(0, -1)) {
      expect(cut).toBeGreaterThan(DEFAULT_CHUNKER.min);
      expect(cut).toBeLessThanOrEqual(DEFAULT_CHUNKER.max);
    }
    // Zeros never match the mask: that part is cut at the maximum size.
    expect(cuts.at(-2)).toBe(DEFAULT_CHUNKER.max);
    const randomPart = cuts.slice(
      0,
      cuts.findIndex((c) => c === DEFAULT_CHUNKER.max),
    );
    const mean = randomPart.reduce((a, b) => a + b, 0) / randomPart.length;
    expect(mean).toBeGreaterThan(DEFAULT_CHUNKER.min);
    expect(mean).toBeLessThan(2 * DEFAULT_CHUNKER.avg);
  });

  it('starts a new stream afresh after reset, even when the last one stopped half way', () => {
    const chunker = new Chunker(gear, small);
    // Zeros hold no boundary: the chunker stops half way, keeping its place.
    const abandoned = Buffer.alloc(30_000);
    expect(chunker.cut(abandoned, 0, abandoned.length, false)).toBe(-1);
    const data = randomBytes(500_000);
    expect(streamedCuts(chunker, data, 7000)).toEqual(referenceCuts(data, gear, small));
  });
});
