import { randomFillSync } from 'node:crypto';

/**
 * Random bytes for ids, drawn from the system's CSPRNG 4 KiB at a time: one `getrandom` call per
 * 256 ids instead of one per id (Node's own `randomUUID` keeps such a cache too). Each id takes
 * 16 bytes the pool never hands out again.
 */
const pool = Buffer.alloc(4096);
let taken = pool.length;

/**
 * A UUIDv7 (RFC 9562): 48-bit millisecond timestamp, then random bits. Ids sort by
 * creation time, which keeps B-tree inserts local and lets tables page by id.
 */
export function newId(now = Date.now()): string {
  if (taken === pool.length) {
    randomFillSync(pool);
    taken = 0;
  }
  const bytes = Buffer.from(pool.subarray(taken, taken + 16));
  taken += 16;
  bytes.writeUIntBE(now, 0, 6);
  bytes[6] = 0x70 | (bytes[6]! & 0x0f);
  bytes[8] = 0x80 | (bytes[8]! & 0x3f);
  const hex = bytes.toString('hex');
  return `${hex.slice(0, 8)}-${hex.slice(8, 12)}-${hex.slice(12, 16)}-${hex.slice(16, 20)}-${hex.slice(20)}`;
}
