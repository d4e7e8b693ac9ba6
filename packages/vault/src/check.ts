import { randomInt } from 'node:crypto';
import { availableParallelism } from 'node:os';
import { packName } from './pack.js';
import { CryptoPool } from './pool.js';
import type { Repository } from './repository.js';
import { listSnapshots } from './snapshot.js';
import { loadTree, walkTree } from './tree.js';

/** Options of a check. */
export interface CheckOptions {
  /** Read, decrypt and hash every blob of every pack. */
  readData?: boolean;
  /** Like readData, for this percentage of packs chosen at random. */
  readDataSubsetPercent?: number;
  threads?: number;
}

/** What a check found; any error means damage. */
export interface CheckResult {
  errors: string[];
  warnings: string[];
  packsRead: number;
  blobsRead: number;
}

/** Checks index ↔ packs ↔ trees ↔ snapshots, and optionally the data itself. */
export async function check(repo: Repository, options: CheckOptions = {}): Promise<CheckResult> {
  const result: CheckResult = { errors: [], warnings: [], packsRead: 0, blobsRead: 0 };
  const stored = new Map((await repo.backend.list('data/')).map((f) => [f.name.split('/').pop()!, f.size]));
  const index = repo.index;

  // Index → packs: every listed pack exists and every blob lies inside it.
  const indexedPacks = new Set<string>();
  for (let n = 0; n < index.size; n++) {
    const loc = index.at(n);
    const hex = loc.pack.toString('hex');
    indexedPacks.add(hex);
    const size = stored.get(hex);
    if (size === undefined) {
      if (!result.errors.some((e) => e.includes(hex))) result.errors.push(`pack ${hex} is in the index but missing`);
    } else if (loc.offset + loc.length > size) {
      if (!result.errors.some((e) => e.includes(hex))) result.errors.push(`pack ${hex} is shorter than the index says (truncated?)`);
    }
  }
  for (const hex of stored.keys()) {
    if (!indexedPacks.has(hex)) result.warnings.push(`pack ${hex} is not in the index (left by an interrupted run; prune removes it)`);
  }

  // Snapshots → trees → blobs.
  const seenTrees = new Set<string>();
  for (const { id, snapshot } of await listSnapshots(repo)) {
    try {
      if (snapshot.checkpoint) {
        for (const seg of snapshot.segments ?? []) await loadTree(repo, seg);
        continue;
      }
      await walkTree(repo, snapshot.tree, (p, node) => {
        for (const c of node.chunks ?? []) {
          if (!index.has(Buffer.from(c, 'hex'))) result.errors.push(`snapshot ${id.slice(0, 8)}: ${p} needs missing blob ${c}`);
        }
        if (node.subtree) seenTrees.add(node.subtree);
      });
    } catch (err) {
      result.errors.push(`snapshot ${id.slice(0, 8)}: ${(err as Error).message}`);
    }
  }

  if (options.readData || options.readDataSubsetPercent !== undefined) {
    let packs = [...stored.keys()];
    if (options.readDataSubsetPercent !== undefined) {
      const keep = Math.max(1, Math.ceil((packs.length * options.readDataSubsetPercent) / 100));
      for (let i = packs.length - 1; i > 0; i--) {
        const j = randomInt(i + 1);
        [packs[i], packs[j]] = [packs[j]!, packs[i]!];
      }
      packs = packs.slice(0, keep);
    }
    const pool = new CryptoPool(repo.key.encKey, options.threads ?? availableParallelism(), repo.key.macKey);
    try {
      const queue = [...packs];
      await Promise.all(
        // One pack in flight per worker: each costs ~30 MiB (its bytes and their openings).
        Array.from({ length: options.threads ?? availableParallelism() }, async () => {
          for (let hex = queue.shift(); hex; hex = queue.shift()) await readPack(repo, pool, hex, result);
        }),
      );
    } finally {
      await pool.close();
    }
  }
  return result;
}

async function readPack(repo: Repository, pool: CryptoPool, hex: string, result: CheckResult): Promise<void> {
  const data = await repo.backend.get(packName(hex));
  result.packsRead++;
  // Hashing, header and every blob are checked in a worker; the pack is handed over.
  const verdict = await pool.verifyPack(hex, data);
  if (!verdict.hashMatches) result.errors.push(`pack ${hex} is damaged: its content does not match its name`);
  if (verdict.headerError !== undefined) {
    result.errors.push(`pack ${hex} is damaged: ${verdict.headerError}`);
    return;
  }
  for (const [id, reason] of verdict.damaged) result.errors.push(`pack ${hex} is damaged: blob ${id.slice(0, 16)}: ${reason}`);
  result.blobsRead += verdict.entries.length - verdict.damaged.length;
  for (const [id, offset, length] of verdict.entries) {
    const loc = repo.index.get(Buffer.from(id, 'hex'));
    if (loc && loc.pack.toString('hex') === hex && (loc.offset !== offset || loc.length !== length)) {
      result.errors.push(`pack ${hex}: index and pack header disagree about blob ${id.slice(0, 16)}`);
    }
  }
}
