import fs from 'node:fs/promises';
import path from 'node:path';
import { availableParallelism } from 'node:os';
import type { BlobLocation } from './blob-index.js';
import { packName } from './pack.js';
import { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';
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

interface FileJob {
  path: string;
  node: TreeNode;
  remaining: number;
  error: string | null;
}

interface Target {
  file: FileJob;
  offset: number;
}

interface Needed {
  id: Buffer;
  loc: BlobLocation;
  targets: Target[];
}

const JOURNAL_PREFIX = '.bogwan-restore-';
const PACK_CONCURRENCY = 2;

function isZero(buf: Buffer): boolean {
  for (let i = 0; i < buf.length; i += 65536) {
    const slice = buf.subarray(i, Math.min(buf.length, i + 65536));
    if (slice.some((b) => b !== 0)) return false;
  }
  return true;
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
  await fs.mkdir(target, { recursive: true });
  const journalPath = path.join(target, `${JOURNAL_PREFIX}${snapshotId.slice(0, 16)}`);
  const done = new Set((await fs.readFile(journalPath, 'utf8').catch(() => '')).split('\n').filter(Boolean));
  const result: RestoreResult = { snapshotId, files: 0, filesSkipped: 0, bytesWritten: 0, packsRead: 0, failed: [] };
  const dirs: { path: string; node: TreeNode }[] = [];
  const files: FileJob[] = [];

  await walkTree(repo, snapshot.tree, async (rel, node) => {
    if (!included(rel, options.include)) return;
    const abs = path.join(target, rel);
    if (node.type === 'dir') {
      await fs.mkdir(abs, { recursive: true });
      dirs.push({ path: rel, node });
    } else if (node.type === 'symlink') {
      await fs.rm(abs, { force: true });
      await fs.symlink(node.target ?? '', abs);
    } else {
      files.push({ path: rel, node, remaining: 0, error: null });
    }
  }, '', (rel, err) => result.failed.push({ path: rel, error: `directory listing damaged: ${err.message}` }));

  let journalLines: string[] = [];
  const flushJournal = async (): Promise<void> => {
    if (journalLines.length === 0) return;
    const text = journalLines.join('\n') + '\n';
    journalLines = [];
    await fs.appendFile(journalPath, text);
  };
  const finishFile = async (file: FileJob): Promise<void> => {
    const abs = path.join(target, file.path);
    if (file.error) {
      result.failed.push({ path: file.path, error: file.error });
      return;
    }
    await fs.chmod(abs, file.node.mode);
    await fs.utimes(abs, Date.now() / 1000, file.node.mtimeMs / 1000);
    result.files++;
    journalLines.push(file.path);
    if (journalLines.length >= 256) await flushJournal();
  };

  // Plan: which blobs each file still needs, grouped by pack.
  const byPack = new Map<string, Needed[]>();
  const wanted = new Map<string, Needed>();
  for (const file of files) {
    options.signal?.throwIfAborted();
    const abs = path.join(target, file.path);
    const existing = await fs.stat(abs).catch(() => null);
    if (done.has(file.path) && existing?.size === file.node.size && existing.mtimeMs === file.node.mtimeMs) {
      result.filesSkipped++;
      continue;
    }
    const handle = await fs.open(abs, existing ? 'r+' : 'w');
    try {
      if (existing?.size !== file.node.size) await handle.truncate(file.node.size);
      let offset = 0;
      for (const hex of file.node.chunks ?? []) {
        const id = Buffer.from(hex, 'hex');
        const loc = repo.index.get(id);
        if (!loc) {
          file.error = `blob ${hex} is missing from the repository`;
          break;
        }
        // Already right on disk (an earlier, interrupted restore)? Then skip it.
        let present = false;
        if (existing && existing.size === file.node.size) {
          const current = Buffer.allocUnsafe(loc.rawLength);
          const { bytesRead } = await handle.read(current, 0, loc.rawLength, offset);
          present = bytesRead === loc.rawLength && repo.id(current).equals(id);
        }
        if (!present) {
          let need = wanted.get(hex);
          if (!need) {
            need = { id, loc, targets: [] };
            wanted.set(hex, need);
            const packHex = loc.pack.toString('hex');
            const list = byPack.get(packHex) ?? [];
            list.push(need);
            byPack.set(packHex, list);
          }
          need.targets.push({ file, offset });
          file.remaining++;
        }
        offset += loc.rawLength;
      }
    } finally {
      await handle.close();
    }
    if (file.remaining === 0) await finishFile(file);
  }

  const pool = new CryptoPool(repo.key.encKey, options.threads ?? availableParallelism());
  const writeBlob = async (need: Needed, data: Buffer | null, error: string | null): Promise<void> => {
    const zero = data !== null && isZero(data);
    for (const t of need.targets) {
      if (error) t.file.error ??= error;
      else if (!t.file.error && !zero) {
        const handle = await fs.open(path.join(target, t.file.path), 'r+');
        try {
          await handle.write(data!, 0, data!.length, t.offset);
        } finally {
          await handle.close();
        }
        result.bytesWritten += data!.length;
      }
      if (--t.file.remaining === 0) await finishFile(t.file);
    }
  };

  const restorePack = async (packHex: string, needs: Needed[]): Promise<void> => {
    needs.sort((a, b) => a.loc.offset - b.loc.offset);
    const start = needs[0]!.loc.offset;
    const last = needs.at(-1)!;
    const end = last.loc.offset + last.loc.length;
    let span: Buffer | null = null;
    let spanError: string | null = null;
    try {
      span = await repo.backend.getRange(packName(packHex), start, end - start);
      result.packsRead++;
    } catch (err) {
      spanError = `pack ${packHex.slice(0, 12)} unreadable: ${(err as Error).message}`;
    }
    await Promise.all(
      needs.map(async (need) => {
        if (!span) return writeBlob(need, null, spanError);
        const from = need.loc.offset - start;
        if (from + need.loc.length > span.length) return writeBlob(need, null, `pack ${packHex.slice(0, 12)} is truncated`);
        try {
          const plain = await pool.open(need.id, span.subarray(from, from + need.loc.length));
          if (!repo.id(plain).equals(need.id)) throw new Error('content does not match its id');
          await writeBlob(need, plain, null);
        } catch (err) {
          await writeBlob(need, null, `damaged blob in pack ${packHex.slice(0, 12)}: ${(err as Error).message}`);
        }
      }),
    );
  };

  try {
    const queue = [...byPack.entries()];
    await Promise.all(
      Array.from({ length: PACK_CONCURRENCY }, async () => {
        for (let next = queue.shift(); next; next = queue.shift()) {
          options.signal?.throwIfAborted();
          await restorePack(next[0], next[1]);
        }
      }),
    );
  } finally {
    await pool.close();
    await flushJournal();
  }

  // Directories last, deepest first, so writing into them does not bump their mtime.
  for (const dir of dirs.reverse()) {
    const abs = path.join(target, dir.path);
    await fs.chmod(abs, dir.node.mode);
    await fs.utimes(abs, Date.now() / 1000, dir.node.mtimeMs / 1000);
  }
  if (result.failed.length === 0) await fs.rm(journalPath, { force: true });
  return result;
}
