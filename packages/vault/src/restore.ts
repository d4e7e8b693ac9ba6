import fs from 'node:fs/promises';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import { packName, SPAN_MAX, type Span, spans } from './pack.js';
import type { RestoreTargetOutcome } from './pack-tasks.js';
import { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';
import { RestoreFiles, RestoreNeeds, type RestoreTarget } from './restore-plan.js';
import { findSnapshot } from './snapshot.js';
import { type TreeNode, walkTree } from './tree.js';

/** Options of a restore. */
export interface RestoreOptions {
  /** Only restore paths equal to or under one of these (snapshot-relative). */
  include?: string[];
  signal?: AbortSignal;
  threads?: number;
}

/** Outcome of a restore: what was written, skipped and what failed. */
export interface RestoreResult {
  snapshotId: string;
  files: number;
  filesSkipped: number;
  bytesWritten: number;
  packsRead: number;
  failed: { path: string; error: string }[];
}

const JOURNAL_PREFIX = '.bogwan-restore-';
/** Spans read ahead per restore worker (see restore()). */
const SPANS_PER_WORKER = 2;

/**
 * Raised when the restore target cannot be written (disk full, quota, read-only, file
 * too large). Unlike a damaged blob this affects every file, so the restore stops; the
 * journal keeps what is done and the repository is untouched.
 */
export class RestoreTargetError extends Error {
  readonly code: string | undefined;
  constructor(target: string, file: string, cause: NodeJS.ErrnoException) {
    const reason =
      cause.code === 'ENOSPC'
        ? 'no space left on the device'
        : cause.code === 'EDQUOT'
          ? 'disk quota exceeded'
          : cause.code === 'EFBIG'
            ? 'file too large for the target file system or limits'
            : cause.code === 'EROFS'
              ? 'the target file system is read-only'
              : cause.message;
    super(
      `cannot write the restore target ${target} (${file}): ${reason}${cause.code ? ` [${cause.code}]` : ''}; the repository is unchanged; make room (or fix the target) and run the same restore again to continue`,
    );
    this.name = 'RestoreTargetError';
    this.code = cause.code;
  }
}

/**
 * Reads a restore journal: one JSON line [path, size, mtimeMs] per finished file (JSON,
 * so any file name fits on a line). A torn last line from a killed run is ignored.
 */
async function readJournal(file: string): Promise<Map<string, { size: number; mtimeMs: number }>> {
  const done = new Map<string, { size: number; mtimeMs: number }>();
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  for (const line of text.split('\n')) {
    try {
      const [p, size, mtimeMs] = JSON.parse(line) as [string, number, number];
      if (typeof p === 'string' && typeof size === 'number' && typeof mtimeMs === 'number') done.set(p, { size, mtimeMs });
    } catch {
      // Empty or torn line.
    }
  }
  return done;
}

function included(p: string, include?: string[]): boolean {
  return !include || include.some((i) => p === i || p.startsWith(`${i}/`) || i.startsWith(`${p}/`));
}

/**
 * Restores a snapshot into `target`. Each pack is read once, blobs are verified and
 * written at their offsets; all-zero chunks stay holes. A journal in the target lets
 * a stopped restore be retried without rewriting finished files.
 */
export async function restore(repo: Repository, ref: string, target: string, options: RestoreOptions = {}): Promise<RestoreResult> {
  const { id: snapshotId, snapshot } = await findSnapshot(repo, ref);
  // Any failure to write the target stops the whole restore with one clear error.
  const onTarget = async <T>(rel: string, work: () => Promise<T>): Promise<T> => {
    try {
      return await work();
    } catch (err) {
      if (err instanceof RestoreTargetError) throw err;
      throw new RestoreTargetError(target, rel, err as NodeJS.ErrnoException);
    }
  };
  await onTarget('.', () => fs.mkdir(target, { recursive: true }));
  const journalPath = path.join(target, `${JOURNAL_PREFIX}${snapshotId.slice(0, 16)}`);
  const done = await readJournal(journalPath);
  // Restoring into an empty directory: no file can exist yet, so none is looked up.
  const freshTarget = done.size === 0 && (await fs.readdir(target)).length === 0;
  const result: RestoreResult = { snapshotId, files: 0, filesSkipped: 0, bytesWritten: 0, packsRead: 0, failed: [] };
  const dirs: { path: string; mode: number; mtimeMs: number }[] = [];

  let journalLines: string[] = [];
  const flushJournal = async (): Promise<void> => {
    if (journalLines.length === 0) return;
    const text = journalLines.join('\n') + '\n';
    journalLines = [];
    await fs.appendFile(journalPath, text);
  };
  const files = new RestoreFiles();
  const finishFile = async (file: number, written?: { size: number; mtimeMs: number }): Promise<void> => {
    const rel = files.path(file);
    const error = files.error(file);
    if (error) {
      result.failed.push({ path: rel, error });
      return;
    }
    // The journal records the mtime as the target file system stored it: utimes
    // rounds, and coarse file systems truncate, so the snapshot's value would not match.
    const st =
      written ??
      (await onTarget(rel, async () => {
        const abs = path.join(target, rel);
        await fs.chmod(abs, files.mode(file));
        await fs.utimes(abs, Date.now() / 1000, files.mtimeMs(file) / 1000);
        return fs.stat(abs);
      }));
    result.files++;
    journalLines.push(JSON.stringify([rel, st.size, st.mtimeMs]));
    if (journalLines.length >= 256) await onTarget(path.basename(journalPath), flushJournal);
  };

  // Plan: which blobs each file still needs, grouped by pack. Files and blobs are rows
  // of typed columns (restore-plan.ts), blobs known by their index entry number: a plan
  // holds no object per file or blob (50,000 files are 50,000 blobs or more).
  const index = repo.index;
  const needs = new RestoreNeeds(index);
  const want = (file: number, entry: number, offset: number): void => {
    needs.want(entry, file, offset);
    files.expect(file);
  };
  // Each file is planned as the walk of the snapshot comes to it: its list of chunk ids
  // is dropped at once instead of 50,000 of them being held until all are listed.
  const plan = async (rel: string, node: TreeNode): Promise<void> => {
    options.signal?.throwIfAborted();
    const file = files.add(rel, node.name, node.mode, node.mtimeMs, node.size);
    const abs = path.join(target, rel);
    const existing = freshTarget ? null : await fs.stat(abs).catch(() => null);
    const chunks = node.chunks ?? [];
    if (!existing && chunks.length === 1) {
      // The common small file: nothing to prepare now; written whole when its blob comes.
      const entry = index.find(Buffer.from(chunks[0]!, 'hex'));
      if (entry < 0) {
        files.fail(file, `blob ${chunks[0]} is missing from the repository`);
        await finishFile(file);
      } else {
        files.markWhole(file);
        want(file, entry, 0);
      }
      return;
    }
    const finished = done.get(rel);
    if (finished && existing?.size === node.size && existing.size === finished.size && existing.mtimeMs === finished.mtimeMs) {
      result.filesSkipped++;
      return;
    }
    const handle = await onTarget(rel, () => fs.open(abs, existing ? 'r+' : 'w'));
    if (!existing) files.markCreated(file);
    try {
      if (existing?.size !== node.size) await onTarget(rel, () => handle.truncate(node.size));
      let offset = 0;
      for (const hex of chunks) {
        const id = Buffer.from(hex, 'hex');
        const entry = index.find(id);
        if (entry < 0) {
          files.fail(file, `blob ${hex} is missing from the repository`);
          break;
        }
        const rawLength = index.rawLengthAt(entry);
        // Already right on disk (an earlier, interrupted restore)? Then skip it.
        let present = false;
        if (existing && existing.size === node.size) {
          const current = Buffer.allocUnsafe(rawLength);
          const { bytesRead } = await handle.read(current, 0, rawLength, offset);
          present = bytesRead === rawLength && repo.id(current).equals(id);
        }
        if (!present) want(file, entry, offset);
        offset += rawLength;
      }
    } finally {
      await handle.close();
    }
    if (files.remaining(file) === 0) await finishFile(file);
  };

  await walkTree(
    repo,
    snapshot.tree,
    async (rel, node) => {
      if (!included(rel, options.include)) return;
      const abs = path.join(target, rel);
      if (node.type === 'dir') {
        await onTarget(rel, () => fs.mkdir(abs, { recursive: true }));
        dirs.push({ path: rel, mode: node.mode, mtimeMs: node.mtimeMs });
      } else if (node.type === 'symlink') {
        await onTarget(rel, async () => {
          await fs.rm(abs, { force: true });
          await fs.symlink(node.target ?? '', abs);
        });
      } else {
        await plan(rel, node);
      }
    },
    '',
    (rel, err) => result.failed.push({ path: rel, error: `directory listing damaged: ${err.message}` }),
  );
  const queue = needs.byPack();

  const threads = options.threads ?? availableParallelism();
  const pool = new CryptoPool(repo.key.encKey, threads, repo.key.macKey);
  // Two spans in flight per thread: the next one is read while the current one is restored
  // (by the native codec or a worker), instead of waiting for each read (3.44–3.72 → 3.30 s cold).
  const loops = threads * SPANS_PER_WORKER;
  // Set once the target fails: the other pack workers stop instead of piling up errors.
  let fatal: Error | null = null;

  // The native codec (or a worker) decrypts, verifies and writes each span's blobs; the
  // main thread only reads spans and keeps the books (which file is complete, the
  // journal). A pack is read in
  // spans of at most SPAN_MAX bytes (a bigger blob gets one of its own), so memory holds
  // a few MiB per worker, not a whole pack and its openings.
  const restorePack = async (pack: number, rows: number[]): Promise<void> => {
    const packHex = index.packs()[pack]!.toString('hex');
    result.packsRead++;
    const extent = (row: number) => {
      const entry = needs.entry(row);
      return { offset: index.offsetAt(entry), length: index.lengthAt(entry) };
    };
    for (const span of spans(rows, extent)) await restoreSpan(packHex, span);
  };

  // Span buffers come back with each span's result and are read into again.
  const spare: Buffer[] = [];
  const spanBuffer = (length: number): Buffer => {
    const buf = spare.pop();
    return buf && buf.length >= length ? buf : Buffer.allocUnsafeSlow(Math.max(SPAN_MAX, length));
  };

  const restoreSpan = async (packHex: string, { items: rows, start, length }: Span<number>): Promise<void> => {
    let span: Buffer;
    const into = spanBuffer(length);
    try {
      span = await repo.backend.getRange(packName(packHex), start, length, into);
    } catch (err) {
      const reason = `pack ${packHex.slice(0, 12)} unreadable: ${(err as Error).message}`;
      for (const row of rows) for (const t of needs.targets(row)) await settle(t, { damage: reason });
      return;
    }
    // A backend that did not read into it (S3) leaves the buffer for the next span.
    const lent = span.buffer === into.buffer;
    if (!lent) spare.push(into);
    // The span's blob ids side by side in one buffer: one small copy goes to the codec or worker.
    const ids = Buffer.allocUnsafeSlow(rows.length * 32);
    const targets = rows.map((row) => needs.targets(row));
    const done = await pool.restorePack(
      {
        kind: 'restore-pack',
        hex: packHex,
        span,
        blobs: rows.map((row, i) => {
          const entry = needs.entry(row);
          ids.set(index.idAt(entry), i * 32);
          return {
            id: ids.subarray(i * 32, i * 32 + 32),
            from: index.offsetAt(entry) - start,
            length: index.lengthAt(entry),
            targets: targets[i]!.map(({ file, offset }) => ({
              path: path.join(target, files.path(file)),
              offset,
              holes: files.holes(file),
              ...(files.whole(file) ? { whole: { mode: files.mode(file), mtimeMs: files.mtimeMs(file), size: files.size(file) } } : {}),
            })),
          };
        }),
      },
      lent,
    );
    if (done.span && spare.length < loops) spare.push(Buffer.from(done.span.buffer, 0, done.span.buffer.byteLength));
    for (let b = 0; b < done.outcomes.length; b++) {
      const outcomes = done.outcomes[b]!;
      for (let i = 0; i < outcomes.length; i++) await settle(targets[b]![i]!, outcomes[i]!);
    }
    if (done.fatal) {
      const cause = Object.assign(new Error(done.fatal.message), { code: done.fatal.code }) as NodeJS.ErrnoException;
      throw new RestoreTargetError(target, path.relative(target, done.fatal.path), cause);
    }
  };

  const settle = async ({ file }: RestoreTarget, outcome: RestoreTargetOutcome): Promise<void> => {
    let stat: { size: number; mtimeMs: number } | undefined;
    if ('damage' in outcome) files.fail(file, outcome.damage);
    else {
      result.bytesWritten += outcome.written;
      if (outcome.size !== undefined && outcome.mtimeMs !== undefined) stat = { size: outcome.size, mtimeMs: outcome.mtimeMs };
    }
    if (files.arrived(file) > 0) return;
    await finishFile(file, files.whole(file) ? stat : undefined);
  };

  let failure: unknown = null;
  try {
    await Promise.all(
      // Each span in flight costs its bytes and their openings.
      Array.from({ length: loops }, async () => {
        try {
          for (let next = queue.shift(); next && !fatal; next = queue.shift()) {
            options.signal?.throwIfAborted();
            await restorePack(next.pack, next.rows);
          }
        } catch (err) {
          fatal ??= err as Error;
          throw err;
        }
      }),
    );
  } catch (err) {
    failure = err;
  } finally {
    await pool.close();
    try {
      await onTarget(path.basename(journalPath), flushJournal);
    } catch (err) {
      // With the disk full the journal may not grow; the retry then re-verifies those files.
      failure ??= err;
    }
  }
  if (failure) throw failure;

  // Directories last, deepest first, so writing into them does not bump their mtime.
  for (const dir of dirs.reverse()) {
    const abs = path.join(target, dir.path);
    await onTarget(dir.path, async () => {
      await fs.chmod(abs, dir.mode);
      await fs.utimes(abs, Date.now() / 1000, dir.mtimeMs / 1000);
    });
  }
  if (result.failed.length === 0) await fs.rm(journalPath, { force: true });
  return result;
}
