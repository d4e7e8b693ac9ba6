import type { Repository } from './repository.js';

/** Statistics of one backup run. */
export interface BackupStats {
  files: number;
  dirs: number;
  filesRead: number;
  bytesRead: number;
  filesUnchanged: number;
  filesResumed: number;
  totalSize: number;
  blobsAdded: number;
  bytesAdded: number;
  bytesStored: number;
  durationMs: number;
}

/** A snapshot record, stored encrypted as snapshots/<id>. */
export interface Snapshot {
  time: string;
  host: string;
  paths: string[];
  /** Root tree id (hex); empty for a checkpoint. */
  tree: string;
  parent?: string;
  /** An interrupted run's progress: not a restorable snapshot. */
  checkpoint?: boolean;
  /** Checkpoint segments: trees of what the run had done (files, finished directories by their tree), by full path, for resuming. */
  segments?: string[];
  stats?: Partial<BackupStats>;
  tags?: string[];
}

/**
 * The trees a snapshot record refers to: its root tree, or a checkpoint's segments (trees
 * too: files, and finished directories with their trees, named by full path).
 */
export function treeRoots(snapshot: Snapshot): string[] {
  return snapshot.checkpoint ? (snapshot.segments ?? []) : [snapshot.tree];
}

/** A snapshot with its id. */
export interface SnapshotEntry {
  id: string;
  snapshot: Snapshot;
}

/** Lists all snapshot records (including checkpoints), oldest first. */
export async function listSnapshots(repo: Repository): Promise<SnapshotEntry[]> {
  const out: SnapshotEntry[] = [];
  for (const file of await repo.backend.list('snapshots/')) {
    const id = file.name.slice('snapshots/'.length);
    out.push({ id, snapshot: await repo.getJson<Snapshot>(file.name, 'snapshot') });
  }
  return out.sort((a, b) => a.snapshot.time.localeCompare(b.snapshot.time));
}

/** Stores a snapshot record; returns its id. */
export function saveSnapshot(repo: Repository, snapshot: Snapshot): Promise<string> {
  return repo.putJson('snapshots', 'snapshot', snapshot);
}

/** Finds a complete snapshot by id, unique id prefix, or "latest". */
export async function findSnapshot(repo: Repository, ref: string): Promise<SnapshotEntry> {
  const all = (await listSnapshots(repo)).filter((s) => !s.snapshot.checkpoint);
  if (ref === 'latest') {
    const last = all.at(-1);
    if (!last) throw new Error('the repository has no snapshots');
    return last;
  }
  const matches = all.filter((s) => s.id.startsWith(ref));
  if (matches.length === 1) return matches[0]!;
  throw new Error(matches.length === 0 ? `no snapshot ${ref}` : `snapshot id ${ref} is ambiguous`);
}

/** True when two path lists name the same backup source. */
export function samePaths(a: string[], b: string[]): boolean {
  return JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());
}
