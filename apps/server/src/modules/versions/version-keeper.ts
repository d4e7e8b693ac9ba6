import { newId } from '../../ids.js';
import type { NodesRepo } from '../files/nodes.repo.js';
import type { NodeRow } from '../files/ports.js';
import { effectivePolicy, type VersionRow, VersionsRepo } from './versions.repo.js';

/** The new content a file takes. */
export interface NewContent {
  size: number;
  contentHash: string;
}

/** A change of blob references, applied in hash order (the order every writer of several uses). */
type RefChange = { backend: string; hash: string; size: number; delta: number };

/** The versions repo of a tree change's transaction. */
export function versionsIn(repo: NodesRepo): VersionsRepo {
  if (!repo.trx) throw new Error('versions change outside a transaction');
  return new VersionsRepo(repo.trx);
}

/**
 * What replacing `current`'s content does under its root's retention: whether the current
 * content is kept as a version, and which versions go (with the new one counted, at most
 * maxVersions stay).
 */
async function replacementOf(versions: VersionsRepo, current: NodeRow): Promise<{ keep: boolean; dropped: VersionRow[] }> {
  const policy = effectivePolicy(await versions.policyOf(current.root_id));
  const keep = current.content_hash !== null && current.blob_key !== null && policy.maxVersions !== 0;
  const existing = await versions.listOf(current.id);
  const dropped = policy.maxVersions === null ? [] : existing.slice(Math.max(0, policy.maxVersions - (keep ? 1 : 0)));
  return { keep, dropped };
}

/**
 * The bytes of its root's usage that replacing `current` gives back (the versions the retention
 * drops, and the current content when no version is kept): what a check of room before the
 * new bytes arrive may count on, as `keepReplacedContent` will.
 */
export async function bytesFreedByReplacing(versions: VersionsRepo, current: NodeRow): Promise<number> {
  const { keep, dropped } = await replacementOf(versions, current);
  return sizeOf(dropped) + (keep ? 0 : current.size);
}

/**
 * Inside the transaction that replaces `current`'s content (under its root's tree lock):
 * keeps the current content as a version when the retention keeps any (its blob reference
 * passes to the version), drops the oldest versions past the count the retention keeps, and
 * counts the root's usage: the new content is added in full (the old stays as a version), what
 * the dropped versions held is given back. Answers false, with nothing changed, when the
 * result would pass the root's volume limit. The caller then updates the node.
 */
export async function keepReplacedContent(repo: NodesRepo, current: NodeRow, content: NewContent): Promise<boolean> {
  const versions = versionsIn(repo);
  const { keep, dropped } = await replacementOf(versions, current);
  const freed = sizeOf(dropped);
  const kept = keep ? current.size : 0;
  // Without a version, the old content's bytes go: the usage changes by the difference.
  const delta = content.size - freed - (keep ? 0 : current.size);
  if (!(await repo.addUsage(current.root_id, delta, true))) return false;
  await repo.addBreakdown(current.root_id, { versions: kept - freed });
  const changes: RefChange[] = [{ backend: current.backend, hash: content.contentHash, size: content.size, delta: 1 }];
  if (!keep && current.content_hash) changes.push({ backend: current.backend, hash: current.content_hash, size: current.size, delta: -1 });
  for (const version of dropped) changes.push({ backend: version.backend, hash: version.content_hash, size: Number(version.size), delta: -1 });
  await applyRefChanges(repo, changes);
  await versions.delete(dropped.map((v) => v.id));
  if (keep) {
    await versions.insert({
      id: newId(),
      node_id: current.id,
      root_id: current.root_id,
      backend: current.backend,
      content_hash: current.content_hash!,
      blob_key: current.blob_key!,
      size: current.size,
      author_id: current.content_by ?? current.owner_id,
      written_at: current.mtime,
      replaced_at: new Date().toISOString(),
    });
  }
  return true;
}

/**
 * Deletes versions in the current transaction: their rows, their blob references (a blob at
 * 0 is the collector's) and their bytes in their root's usage.
 */
export async function dropVersions(repo: NodesRepo, rows: VersionRow[]): Promise<void> {
  if (rows.length === 0) return;
  const byRoot = new Map<string, number>();
  for (const row of rows) byRoot.set(row.root_id, (byRoot.get(row.root_id) ?? 0) + Number(row.size));
  for (const [rootId, bytes] of [...byRoot].sort(([a], [b]) => (a < b ? -1 : 1))) {
    await repo.addUsage(rootId, -bytes, false);
    await repo.addBreakdown(rootId, { versions: -bytes });
  }
  await applyRefChanges(
    repo,
    rows.map((row) => ({ backend: row.backend, hash: row.content_hash, size: Number(row.size), delta: -1 })),
  );
  await versionsIn(repo).delete(rows.map((row) => row.id));
}

/** Deletes every version of the given files (they are deleted for good). */
export async function dropVersionsOf(repo: NodesRepo, nodeIds: string[]): Promise<void> {
  await dropVersions(repo, await versionsIn(repo).ofNodes(nodeIds));
}

/** Bytes the versions of the given files hold. */
export async function versionBytesOf(repo: NodesRepo, nodeIds: string[]): Promise<number> {
  return sizeOf(await versionsIn(repo).ofNodes(nodeIds));
}

function sizeOf(rows: VersionRow[]): number {
  return rows.reduce((sum, row) => sum + Number(row.size), 0);
}

async function applyRefChanges(repo: NodesRepo, changes: RefChange[]): Promise<void> {
  const net = new Map<string, RefChange>();
  for (const change of changes) {
    const key = `${change.backend}\u0000${change.hash}`;
    const entry = net.get(key) ?? { ...change, delta: 0 };
    entry.delta += change.delta;
    net.set(key, entry);
  }
  for (const [, change] of [...net].sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0))) {
    if (change.delta > 0) await repo.addBlobRefs(change.backend, change.hash, change.size, change.delta);
    else if (change.delta < 0) await repo.releaseBlobRefs(change.backend, change.hash, -change.delta);
  }
}
