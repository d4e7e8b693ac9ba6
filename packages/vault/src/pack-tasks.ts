// Pack work done inside a worker thread: verifying the blobs of a pack span for `check
// --read-data`, and restoring the blobs of one pack span straight into the target files
// with synchronous positional writes (a worker's synchronous calls cost a few
// microseconds; the same calls as promises on the main thread cost tens each, and
// 50,000 small files each need six of them).
import fs from 'node:fs';
import { openBlob } from './codec.js';
import { GarbageMeter } from './gc.js';
import { blobId } from './blob-id.js';

/** check --read-data: a span of one pack, handed over (not copied), and the blobs in it. */
export interface VerifySpanTask {
  kind: 'verify-span';
  span: Uint8Array;
  blobs: { id: Uint8Array; from: number; length: number }[];
}

/** Blobs of a verified span that failed: id (hex), reason. */
export type VerifySpanResult = [string, string][];

/** Where one blob of a restore goes. */
export interface RestoreTargetSpec {
  /** Absolute path of the file. */
  path: string;
  offset: number;
  /** A new single-chunk file: created, written, given its mode and time in one go. */
  whole?: { mode: number; mtimeMs: number; size: number };
  /**
   * A part of a file this restore created empty and sized: zeros may stay holes. Without it
   * (a file that existed) zeros are written like any bytes, over what is there.
   */
  holes?: boolean;
}

/** One blob of a restore span. */
export interface RestoreBlobSpec {
  id: Uint8Array;
  /** Offset of the sealed blob inside the span. */
  from: number;
  length: number;
  targets: RestoreTargetSpec[];
}

/** Restore: a span of one pack and what to do with each blob in it. */
export interface RestorePackTask {
  kind: 'restore-pack';
  hex: string;
  span: Uint8Array;
  blobs: RestoreBlobSpec[];
}

/** Outcome per target, in the order of the task's blobs and their targets. */
export type RestoreTargetOutcome = { written: number; size?: number; mtimeMs?: number } | { damage: string };

/** A restore span's outcome; `fatal` means the target could not be written at all. */
export interface RestorePackResult {
  outcomes: RestoreTargetOutcome[][];
  /** The task's span, handed back so its buffer can be read into again. */
  span?: Uint8Array;
  fatal?: { path: string; code?: string; message: string };
}

export type PackTask = VerifySpanTask | RestorePackTask;

/** Verifies every blob of a span: it decrypts and its content matches its id. */
export function verifySpan(encKey: Buffer, macKey: Buffer, task: VerifySpanTask): VerifySpanResult {
  const span = Buffer.from(task.span.buffer, task.span.byteOffset, task.span.byteLength);
  const damaged: VerifySpanResult = [];
  for (const blob of task.blobs) {
    const id = Buffer.from(blob.id.buffer, blob.id.byteOffset, blob.id.byteLength);
    try {
      const plain = openBlob(encKey, id, span.subarray(blob.from, blob.from + blob.length));
      noteGarbage(plain.length + blob.length);
      if (!blobId(macKey, plain).equals(id)) throw new Error('content does not match its id');
    } catch (err) {
      damaged.push([id.toString('hex'), (err as Error).message]);
    }
  }
  return damaged;
}

// Decrypted blobs are garbage as soon as they are written or hashed.
const garbage = new GarbageMeter(8 * 1024 * 1024);

/** Counts bytes of short-lived buffers; collects when enough piled up (gc.ts). */
export function noteGarbage(bytes: number): void {
  garbage.note(bytes);
}

function isZero(buf: Uint8Array): boolean {
  for (let i = 0; i < buf.length; i++) if (buf[i] !== 0) return false;
  return true;
}

class TargetFailure extends Error {
  constructor(
    readonly path: string,
    readonly errno: NodeJS.ErrnoException,
  ) {
    super(errno.message);
  }
}

/** Decrypts, verifies and writes every blob of a restore span. */
export function restorePack(encKey: Buffer, macKey: Buffer, task: RestorePackTask): RestorePackResult {
  const span = Buffer.from(task.span.buffer, task.span.byteOffset, task.span.byteLength);
  const outcomes: RestoreTargetOutcome[][] = [];
  // Files written in several places from this span stay open until it is done.
  const open = new Map<string, number>();
  const onTarget = <T>(file: string, work: () => T): T => {
    try {
      return work();
    } catch (err) {
      throw new TargetFailure(file, err as NodeJS.ErrnoException);
    }
  };
  try {
    for (const blob of task.blobs) {
      let plain: Buffer | null = null;
      let damage = '';
      if (blob.from + blob.length > span.length) damage = `pack ${task.hex.slice(0, 12)} is truncated`;
      else {
        try {
          const id = Buffer.from(blob.id.buffer, blob.id.byteOffset, blob.id.byteLength);
          plain = openBlob(encKey, id, span.subarray(blob.from, blob.from + blob.length));
          noteGarbage(plain.length + blob.length);
          if (!blobId(macKey, plain).equals(id)) throw new Error('content does not match its id');
        } catch (err) {
          plain = null;
          damage = `damaged blob in pack ${task.hex.slice(0, 12)}: ${(err as Error).message}`;
        }
      }
      if (!plain) {
        outcomes.push(blob.targets.map(() => ({ damage })));
        continue;
      }
      const zero = isZero(plain);
      outcomes.push(
        blob.targets.map((t) => {
          if (t.whole) {
            const { mode, mtimeMs, size } = t.whole;
            return onTarget(t.path, () => {
              const fd = fs.openSync(t.path, 'w');
              try {
                if (!zero) fs.writeSync(fd, plain!, 0, plain!.length, 0);
                if (zero || plain!.length !== size) fs.ftruncateSync(fd, size);
                fs.fchmodSync(fd, mode);
                fs.futimesSync(fd, Date.now() / 1000, mtimeMs / 1000);
                const st = fs.fstatSync(fd);
                return { written: zero ? 0 : plain!.length, size: st.size, mtimeMs: st.mtimeMs };
              } finally {
                fs.closeSync(fd);
              }
            });
          }
          if (zero && t.holes) return { written: 0 }; // the file was created and sized by this restore: zeros stay a hole
          return onTarget(t.path, () => {
            let fd = open.get(t.path);
            if (fd === undefined) {
              fd = fs.openSync(t.path, 'r+');
              open.set(t.path, fd);
            }
            fs.writeSync(fd, plain!, 0, plain!.length, t.offset);
            return { written: plain!.length };
          });
        }),
      );
    }
  } catch (err) {
    if (!(err instanceof TargetFailure)) throw err;
    return { outcomes, fatal: { path: err.path, code: err.errno.code, message: err.errno.message } };
  } finally {
    for (const fd of open.values()) {
      try {
        fs.closeSync(fd);
      } catch {
        // Every write to it already succeeded or was reported.
      }
    }
  }
  return { outcomes };
}
