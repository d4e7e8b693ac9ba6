// Worker thread: reads whole small files with synchronous calls and sends them back in
// one buffer per batch: a file that is one chunk as its blob id and sealed blob, any other
// as its bytes (see file-readers.ts).
import { closeSync, readSync } from 'node:fs';
import { parentPort, workerData } from 'node:worker_threads';
import type { ReadBatch, ReadOutcome, ReadResults } from './file-readers.js';
import { blobId } from './blob-id.js';
import { SEAL_OVERHEAD, sealBlobParts } from './codec.js';
import { openRegularFileSync } from './source.js';

const { idKey, encKey, hashUpTo } = workerData as { idKey: Uint8Array; encKey: Uint8Array; hashUpTo: number };
const macKey = Buffer.from(idKey);
const sealKey = Buffer.from(encKey);

/** Room for one byte past the expected size, so a file that grew is noticed. */
const SLACK = 1;
/** A file that grew past its room is read on in pieces of this size. */
const PIECE = 1024 * 1024;

/** Reads from `fd` at `position` into `target` until it is full or the file ends; answers the count. */
function readInto(fd: number, target: Uint8Array, position: number): number {
  let done = 0;
  while (done < target.length) {
    const n = readSync(fd, target, done, target.length - done, position + done);
    if (n === 0) break;
    done += n;
  }
  return done;
}

/** The rest of a file that is longer than it was when walked. */
function readRest(fd: number, position: number): Uint8Array[] {
  const pieces: Uint8Array[] = [];
  for (;;) {
    const piece = new Uint8Array(PIECE);
    const n = readInto(fd, piece, position);
    if (n > 0) pieces.push(piece.subarray(0, n));
    if (n < PIECE) return pieces;
    position += n;
  }
}

/** Seals the `length` bytes at `offset` of `buffer` (one chunk) and puts the sealed blob in their place. */
function seal(buffer: ArrayBuffer, offset: number, length: number): ReadOutcome {
  const bytes = new Uint8Array(buffer, offset, length);
  const id = blobId(macKey, bytes);
  // The pieces are buffers of their own: the file's bytes can be overwritten.
  const parts = sealBlobParts(sealKey, id, bytes);
  let at = offset;
  for (const part of parts) {
    new Uint8Array(buffer, at, part.length).set(part);
    at += part.length;
  }
  return { offset, length: at - offset, id: new Uint8Array(id), rawLength: length };
}

function readBatch({ n, files, sizes }: ReadBatch): { results: ReadResults; transfer: ArrayBuffer[] } {
  // Each file's room also fits its sealed form, which replaces its bytes there.
  const room = sizes.reduce((sum, size) => sum + size + SLACK + SEAL_OVERHEAD, 0);
  const buffer = new ArrayBuffer(room);
  const outcomes: ReadOutcome[] = [];
  const transfer: ArrayBuffer[] = [buffer];
  let offset = 0;
  files.forEach((file, i) => {
    const space = sizes[i]! + SLACK;
    let fd = -1;
    try {
      fd = openRegularFileSync(file);
      const bytes = new Uint8Array(buffer, offset, space);
      const length = readInto(fd, bytes, 0);
      if (length < space) outcomes.push(length > 0 && length <= hashUpTo ? seal(buffer, offset, length) : { offset, length });
      else {
        // Grown since it was walked: its bytes go back in a buffer of their own.
        const whole = Buffer.concat([new Uint8Array(buffer, offset, length), ...readRest(fd, length)]);
        const own = new Uint8Array(whole.length);
        own.set(whole);
        outcomes.push({ own });
        transfer.push(own.buffer);
      }
    } catch (err) {
      const { message, code } = err as NodeJS.ErrnoException;
      outcomes.push({ error: { message, ...(code ? { code } : {}) } });
    } finally {
      if (fd >= 0) closeSync(fd);
    }
    offset += space + SEAL_OVERHEAD;
  });
  return { results: { n, buffer, outcomes }, transfer };
}

parentPort!.on('message', (batch: ReadBatch) => {
  const { results, transfer } = readBatch(batch);
  parentPort!.postMessage(results, transfer);
});
