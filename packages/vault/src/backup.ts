import { hostname } from 'node:os';
import { BackupReads } from './backup-reads.js';
import { Chunker, gearTable } from './chunker.js';
import { GarbageMeter, releaseMemoryPeriodically } from './gc.js';
import { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';
import { type BackupStats, listSnapshots, samePaths, type Snapshot, saveSnapshot } from './snapshot.js';
import type { BackupSource, SourceEntry } from './source.js';
import { loadTree, NodeList, saveTree, storeTree, type TreeNode, walkTree } from './tree.js';
import { BlobWriter } from './writer.js';

/** Options of one backup run. */
export interface BackupOptions {
  /** Paths recorded in the snapshot; also how the parent snapshot is chosen. */
  paths: string[];
  /** Read every file even when unchanged (still deduplicated). */
  full?: boolean;
  /** Explicit parent snapshot id; default: the latest one of the same paths and host. */
  parent?: string;
  host?: string;
  tags?: string[];
  signal?: AbortSignal;
  /** How often to save a checkpoint during a long run (default 60 s). */
  checkpointEveryMs?: number;
  /** Called after each file is handled. */
  onProgress?: (stats: BackupStats, path: string) => void;
  threads?: number;
  /** Bytes of pack listings gathered before an index file is written (default ~50,000 blobs' worth). */
  indexFileBytes?: number;
}

/** The result of a finished backup. */
export interface BackupResult {
  id: string;
  snapshot: Snapshot;
  stats: BackupStats;
}

interface Frame {
  path: string;
  node: TreeNode | null;
  /** Its entries so far, kept compactly (a directory may hold 100,000 or more). */
  nodes: NodeList;
  /** The same directory in the parent snapshot, by name. */
  previous: Map<string, TreeNode> | null;
  /** Its tree id in the parent snapshot: reused when nothing in it changed. */
  previousTree?: string;
  /** Whether any entry differs from the parent's (or there is no parent listing). */
  changed: boolean;
}

/** True when a node would be stored exactly as the parent snapshot's one. */
function sameNode(a: TreeNode, b: TreeNode | undefined): boolean {
  if (!b) return false;
  const keys = Object.keys(a) as (keyof TreeNode)[];
  if (keys.length !== Object.keys(b).length) return false;
  for (const k of keys) {
    const x = a[k];
    const y = b[k];
    if (x === y) continue;
    if (Array.isArray(x) && Array.isArray(y) && x.length === y.length && x.every((v, i) => v === y[i])) continue;
    return false;
  }
  return true;
}

function newStats(): BackupStats {
  return {
    files: 0,
    dirs: 0,
    filesRead: 0,
    bytesRead: 0,
    filesUnchanged: 0,
    filesResumed: 0,
    totalSize: 0,
    blobsAdded: 0,
    bytesAdded: 0,
    bytesStored: 0,
    durationMs: 0,
  };
}

// The source is listed this many entries ahead: small files among them are read ahead of
// their turn (backup-reads.ts).
const LOOKAHEAD = 256;
// A full collection costs a few ms with the engine's small heap; every 32 MiB read keeps
// dropped buffers from piling up to hundreds of MiB (gc.ts).
const GC_EVERY = 32 * 1024 * 1024;
// Each entry also leaves garbage of its own (the source's entry and rows, the tree node's
// pieces, promises), a few KB that the bytes read do not count: with small files the
// collections above would hardly ever come (a no-change run reads nothing at all). Counted
// this much per entry, a young-generation collection comes every 1,024 entries at least and
// a full one every 8,192 (gc.ts), which bounds the garbage a walk of a million entries lets
// build up in the old generation.
const ENTRY_COST = 32 * 1024;
// A directory whose entries take this much JSON is collected for as soon as its tree is made.
const LARGE_TREE = 1024 * 1024;

function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut < 0 ? '' : path.slice(0, cut);
}

function unchanged(entry: SourceEntry, old: TreeNode | undefined): old is TreeNode {
  if (!old || old.type !== 'file' || !old.chunks || old.size !== entry.size) return false;
  if (entry.contentHash !== undefined) return old.hash === entry.contentHash;
  return old.mtimeMs === entry.mtimeMs && old.ctimeMs === entry.ctimeMs && old.inode === entry.inode;
}

/** Backs up a source into a new snapshot, incrementally against its parent. */
export async function backup(repo: Repository, source: BackupSource, options: BackupOptions): Promise<BackupResult> {
  const started = Date.now();
  const host = options.host ?? hostname();
  const stats = newStats();
  const all = await listSnapshots(repo);
  const mine = all.filter((s) => s.snapshot.host === host && samePaths(s.snapshot.paths, options.paths));
  const parent = options.parent ? all.find((s) => s.id.startsWith(options.parent!)) : mine.filter((s) => !s.snapshot.checkpoint).at(-1);
  const checkpoints = mine.filter((s) => s.snapshot.checkpoint);
  const resumeFrom = checkpoints.at(-1);

  const pool = new CryptoPool(repo.key.encKey, options.threads, repo.key.macKey);
  const writer = new BlobWriter(repo, pool, options.indexFileBytes ? { indexFileBytes: options.indexFileBytes } : {});
  const chunker = new Chunker(gearTable(repo.key.chunkerSeed), repo.config.chunker);
  // What the interrupted run had done, by full path: a segment lists files, and
  // directories it had finished with their tree (whose files are expanded here).
  const earlier = resumeFrom?.snapshot.segments ?? [];
  const resumed = new Map<string, TreeNode>();
  for (const seg of earlier) {
    await walkTree(repo, seg, (path, node) => {
      resumed.set(path, node);
    });
  }
  let lastCheckpoint = Date.now();
  let checkpointId: string | null = null;

  // A checkpoint records what this run has done from the open directories alone: their
  // files so far and the subdirectories already finished, whose trees are stored. So
  // nothing is kept per file read, and one segment describes the whole run so far.
  const checkpoint = async (): Promise<void> => {
    const done = new NodeList();
    for (const frame of stack) {
      for (const node of frame.nodes.nodes()) done.push({ ...node, name: frame.path ? `${frame.path}/${node.name}` : node.name });
    }
    const segments = done.length > 0 ? [...earlier, await saveTree(repo, writer, done)] : [...earlier];
    await writer.checkpointIndex();
    const record: Snapshot = {
      time: new Date().toISOString(),
      host,
      paths: options.paths,
      tree: '',
      checkpoint: true,
      segments,
      ...(parent ? { parent: parent.id } : {}),
    };
    const id = await saveSnapshot(repo, record);
    if (checkpointId) await repo.backend.delete(`snapshots/${checkpointId}`);
    checkpointId = id;
    lastCheckpoint = Date.now();
  };

  const garbage = new GarbageMeter(GC_EVERY);
  const reads = new BackupReads({ repo, pool, writer, chunker, stats, garbage, signal: options.signal });

  const stack: Frame[] = [{ path: '', node: null, nodes: new NodeList(), previous: null, changed: true }];
  if (parent && !parent.snapshot.checkpoint) {
    const tree = await loadTree(repo, parent.snapshot.tree);
    stack[0]!.previous = new Map(tree.nodes.map((n) => [n.name, n]));
  }

  // A directory whose entries all match the parent's keeps its tree id: nothing to
  // serialise, hash or look up (a no-change run re-stores no directory at all).
  const closeFrame = async (): Promise<void> => {
    const frame = stack.pop()!;
    const same =
      !frame.changed && frame.previousTree !== undefined && frame.nodes.length === frame.previous?.size && writer.has(Buffer.from(frame.previousTree, 'hex'));
    let subtree = frame.previousTree!;
    if (!same) {
      // A large directory's entries (and the parent snapshot's listing of it) were held long, in
      // the old generation: collected now, before its blob is sealed, rather than after
      // thousands more entries (measured: ~50 MiB of a 100,000-entry directory stayed until
      // the end of the run). Once before the blob is made too, so that the walk's garbage is
      // gone while the entries and their blob are both held (~40 MiB at 100,000 entries).
      const large = frame.nodes.size >= LARGE_TREE;
      if (large) {
        frame.previous = null;
        garbage.collectAll();
      }
      const data = frame.nodes.blob(); // the list gives its pieces up
      if (large) garbage.collectAll();
      subtree = await storeTree(repo, writer, data);
    }
    addNode(stack.at(-1)!, { ...frame.node!, subtree });
  };
  const addNode = (frame: Frame, node: TreeNode): void => {
    if (!frame.changed && !sameNode(node, frame.previous?.get(node.name))) frame.changed = true;
    frame.nodes.push(node);
  };

  // Whether a file will be read rather than taken from the parent or the checkpoint
  // (the same tests as below, minus the rare case of chunks missing from the index).
  const willRead = (entry: SourceEntry, frame: Frame): boolean => {
    const name = entry.path.slice(frame.path ? frame.path.length + 1 : 0);
    if (!options.full && unchanged(entry, frame.previous?.get(name))) return false;
    return !unchanged(entry, resumed.get(entry.path));
  };
  const iterator = source[Symbol.asyncIterator]();
  const ahead: SourceEntry[] = [];
  let sourceDone = false;
  const next = async (): Promise<SourceEntry | undefined> => {
    while (!sourceDone && ahead.length < LOOKAHEAD) {
      const r = await iterator.next();
      if (r.done) sourceDone = true;
      else ahead.push(r.value);
    }
    considered = Math.max(0, considered - 1);
    return ahead.shift();
  };
  // Entries at the front of `ahead` already looked at for this frame: each entry is
  // considered once, not once per file processed (that would be 256× the work).
  let considered = 0;
  let consideredFor: Frame | null = null;
  const prefetch = (frame: Frame): void => {
    if (consideredFor !== frame) {
      consideredFor = frame;
      considered = 0;
    }
    for (; considered < ahead.length; considered++) {
      if (reads.aheadFull) return;
      const e = ahead[considered]!;
      if (parentOf(e.path) !== frame.path) return;
      if (reads.mayReadAhead(e) && willRead(e, frame)) reads.readAhead(e);
    }
  };

  // Reading and sealing free hundreds of MiB of buffers on eight threads, whose allocator
  // arenas would keep tens of MiB of it (measured: peak 278–327 → 239–248 MiB on a first
  // backup, same time). check --read-data does it too; restore frees far less that way and
  // pays the system time, so it does not.
  const stopReleasing = releaseMemoryPeriodically();
  try {
    for (let entry = await next(); entry; entry = await next()) {
      options.signal?.throwIfAborted();
      garbage.note(ENTRY_COST);
      const dir = parentOf(entry.path);
      while (stack.length > 1 && stack.at(-1)!.path !== dir) await closeFrame();
      const top = stack.at(-1)!;
      if (top.path !== dir) throw new Error(`entry ${entry.path} is out of order`);
      prefetch(top);
      const name = entry.path.slice(dir ? dir.length + 1 : 0);
      const node: TreeNode = { name, type: entry.type, mode: entry.mode, mtimeMs: entry.mtimeMs, size: entry.size };
      if (entry.ctimeMs !== undefined) node.ctimeMs = entry.ctimeMs;
      if (entry.inode !== undefined) node.inode = entry.inode;
      if (entry.uid !== undefined) node.uid = entry.uid;
      if (entry.gid !== undefined) node.gid = entry.gid;
      if (entry.contentHash !== undefined) node.hash = entry.contentHash;
      const old = top.previous?.get(name);
      if (entry.type === 'dir' && entry.unchanged) {
        if (!options.full && old?.type === 'dir' && old.subtree && writer.has(Buffer.from(old.subtree, 'hex'))) {
          const below = entry.unchanged;
          node.subtree = old.subtree;
          stats.dirs += 1 + below.dirs;
          stats.files += below.files;
          stats.filesUnchanged += below.files;
          stats.totalSize += below.size;
          addNode(top, node);
          options.onProgress?.(stats, entry.path);
          continue;
        }
        // Not in the parent: its contents come next, as if the source had listed them.
        const contents: SourceEntry[] = [];
        for await (const below of entry.unchanged.contents()) contents.push(below);
        ahead.unshift(...contents);
      }
      if (entry.type === 'dir') {
        stats.dirs++;
        let previous: Map<string, TreeNode> | null = null;
        if (old?.type === 'dir' && old.subtree) {
          previous = new Map((await loadTree(repo, old.subtree)).nodes.map((n) => [n.name, n]));
        }
        stack.push({
          path: entry.path,
          node,
          nodes: new NodeList(),
          previous,
          changed: previous === null,
          ...(previous ? { previousTree: old!.subtree! } : {}),
        });
        continue;
      }
      if (entry.type === 'symlink') {
        node.target = entry.target ?? '';
      } else {
        stats.files++;
        stats.totalSize += entry.size;
        const fromCheckpoint = resumed.get(entry.path);
        if (!options.full && unchanged(entry, old) && old.chunks!.every((c) => writer.has(Buffer.from(c, 'hex')))) {
          node.chunks = old.chunks;
          stats.filesUnchanged++;
        } else if (unchanged(entry, fromCheckpoint)) {
          node.chunks = fromCheckpoint.chunks;
          stats.filesResumed++;
        } else {
          node.chunks = await reads.read(entry);
        }
      }
      reads.take(entry); // read ahead but not needed after all
      addNode(top, node);
      options.onProgress?.(stats, entry.path);
      if (Date.now() - lastCheckpoint > (options.checkpointEveryMs ?? 60_000)) await checkpoint();
    }
    while (stack.length > 1) await closeFrame();
    const tree = await saveTree(repo, writer, stack[0]!.nodes);
    await writer.checkpointIndex();
    stats.blobsAdded = writer.stats.blobsAdded;
    stats.bytesAdded = writer.stats.bytesAdded;
    stats.bytesStored = writer.stats.bytesStored;
    stats.durationMs = Date.now() - started;
    const snapshot: Snapshot = {
      time: new Date().toISOString(),
      host,
      paths: options.paths,
      tree,
      stats: { ...stats },
      ...(parent ? { parent: parent.id } : {}),
      ...(options.tags ? { tags: options.tags } : {}),
    };
    const id = await saveSnapshot(repo, snapshot);
    // The finished snapshot supersedes every checkpoint of these paths.
    for (const c of checkpoints) await repo.backend.delete(`snapshots/${c.id}`);
    if (checkpointId) await repo.backend.delete(`snapshots/${checkpointId}`);
    return { id, snapshot, stats };
  } catch (err) {
    // Keep what was read so the next run resumes instead of starting over.
    try {
      await checkpoint();
    } catch {
      // The original error matters more; a failed checkpoint only costs re-reading.
    }
    throw err;
  } finally {
    stopReleasing();
    // The run's garbage goes now, not when the next run or request makes V8 collect.
    garbage.collectAll();
    await Promise.all([pool.close(), reads.close()]);
  }
}
