import type { PackEntry } from './pack.js';
import { packName } from './pack.js';
import { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';
import { listSnapshots, treeRoots } from './snapshot.js';
import { walkTree } from './tree.js';
import { BlobWriter } from './writer.js';

/** Options of a prune. */
export interface PruneOptions {
  /** Repack only packs with more than this fraction unused (default 0.05). */
  maxUnused?: number;
  /** Stop choosing packs to repack once this many bytes are selected (default: no limit). */
  maxRepackBytes?: number;
  dryRun?: boolean;
}

/** What a prune did (or would do). */
export interface PruneResult {
  packsDeleted: number;
  packsRepacked: number;
  packsKept: number;
  orphanPacksDeleted: number;
  /** Partial files left by killed runs (local directories only). */
  leftoversDeleted: number;
  blobsRemoved: number;
  bytesFreed: number;
}

/**
 * Removes data no snapshot references. Order keeps the repository usable at every
 * step: new packs, then one new index that supersedes the old ones, then deletions.
 */
export async function prune(repo: Repository, options: PruneOptions = {}): Promise<PruneResult> {
  const index = repo.index;
  const used = new Uint8Array(index.size);
  const mark = (hex: string): void => {
    const n = index.find(Buffer.from(hex, 'hex'));
    if (n >= 0) used[n] = 1;
  };
  for (const { snapshot } of await listSnapshots(repo)) {
    for (const root of treeRoots(snapshot)) {
      mark(root);
      await walkTree(repo, root, (_p, node) => {
        node.chunks?.forEach(mark);
        if (node.subtree) mark(node.subtree);
      });
    }
  }

  // Per pack: its entries and how many bytes are still referenced.
  const packs = new Map<number, { total: number; usedBytes: number; entries: number[] }>();
  for (let n = 0; n < index.size; n++) {
    const p = index.packNumberAt(n);
    let info = packs.get(p);
    if (!info) packs.set(p, (info = { total: 0, usedBytes: 0, entries: [] }));
    info.entries.push(n);
    const len = index.at(n).length;
    info.total += len;
    if (used[n]) info.usedBytes += len;
  }
  const stored = await repo.backend.list('data/');
  const indexed = new Set(index.packs().map((p) => p.toString('hex')));
  const orphans = stored.filter((f) => !indexed.has(f.name.split('/').pop()!));

  const result: PruneResult = {
    packsDeleted: 0,
    packsRepacked: 0,
    packsKept: 0,
    orphanPacksDeleted: orphans.length,
    leftoversDeleted: 0,
    blobsRemoved: 0,
    bytesFreed: 0,
  };
  const maxUnused = options.maxUnused ?? 0.05;
  let budget = options.maxRepackBytes ?? Number.POSITIVE_INFINITY;
  const drop: number[] = [];
  const repack: number[] = [];
  const keep: number[] = [];
  for (const [p, info] of packs) {
    if (info.usedBytes === 0) drop.push(p);
    else if ((info.total - info.usedBytes) / info.total > maxUnused && info.usedBytes <= budget) {
      repack.push(p);
      budget -= info.usedBytes;
    } else keep.push(p);
  }
  for (const p of [...drop, ...repack]) {
    const info = packs.get(p)!;
    result.bytesFreed += info.total - info.usedBytes;
    result.blobsRemoved += info.entries.filter((n) => !used[n]).length;
  }
  for (const f of orphans) result.bytesFreed += f.size;
  result.packsDeleted = drop.length;
  result.packsRepacked = repack.length;
  result.packsKept = keep.length;
  if (options.dryRun) return result;

  const pool = new CryptoPool(repo.key.encKey, 1);
  const writer = new BlobWriter(repo, pool, { ignoreIndex: true });
  try {
    for (const p of repack) {
      const info = packs.get(p)!;
      const packId = index.packs()[p]!;
      for (const n of info.entries) {
        if (!used[n]) continue;
        const loc = index.at(n);
        const id = Buffer.from(index.idAt(n));
        const sealed = await repo.backend.getRange(packName(packId), loc.offset, loc.length);
        // Copy ciphertext as is, but only after proving it is intact.
        repo.verifyBlob(id, sealed);
        await writer.addSealed(id, loc.type, sealed, loc.rawLength);
      }
    }
    await writer.flush();
  } finally {
    await pool.close();
  }

  const newIndex: { id: Buffer; entries: PackEntry[] }[] = [];
  for (const p of keep) {
    const info = packs.get(p)!;
    newIndex.push({
      id: index.packs()[p]!,
      entries: info.entries.map((n) => ({ ...index.at(n), id: Buffer.from(index.idAt(n)) })),
    });
  }
  newIndex.push(...writer.takeUnindexed());
  const oldIndexFiles = repo.indexFilesOnDisk;
  await repo.writeIndex({ superseded: oldIndexFiles, packs: newIndex });
  // Deleting is only safe while the exclusive lock is ours: checked before each file, so a
  // prune whose lease lapsed stops (the next one finishes the job).
  const remove = async (name: string) => {
    repo.assertLockHeld();
    await repo.backend.delete(name);
  };
  for (const name of oldIndexFiles) await remove(`index/${name}`);
  for (const p of [...drop, ...repack]) await remove(packName(index.packs()[p]!));
  for (const f of orphans) await remove(f.name);
  // Under the exclusive lock nobody else writes packs, indexes or snapshots, so any
  // temp file there is a leftover of a killed run.
  for (const dir of ['data/', 'index/', 'snapshots/']) {
    for (const f of (await repo.backend.leftovers?.(dir)) ?? []) {
      await remove(f.name);
      result.leftoversDeleted++;
    }
  }
  return result;
}
