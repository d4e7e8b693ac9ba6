import { type Kysely, type Selectable, sql } from 'kysely';
import type { Database, StorageSyncsTable } from '../../db/schema.js';
import { newId } from '../../ids.js';
import { isUniqueViolation } from '../auth/setup.repo.js';
import type { NodeRow } from '../files/ports.js';

export type SyncRow = Selectable<StorageSyncsTable>;

/** A distinct blob wanted on the target: where it is now, its hash and size. */
export interface WantedBlob {
  backend: string;
  hash: string;
  size: number;
}

/** A sync was canceled (or ended elsewhere) while its last transaction ran; nothing of it was written. */
export class SyncNotRunningError extends Error {
  constructor() {
    super('sync is no longer running');
  }
}

const BATCH = 200;

/**
 * SQL of storage syncs: their rows, the blobs they hold pinned on the target, and the
 * two writes that finish them (switch a root's nodes to the target backend; insert a
 * copy of a root's tree on the target backend), each in one transaction.
 */
export class SyncRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Live root folders by name. */
  liveRoots(): Promise<NodeRow[]> {
    return this.db.selectFrom('nodes').selectAll().where('parent_id', '=', '').where('trash_key', '=', '').orderBy('name').execute();
  }

  /** Inserts a running sync; false when the root already has one (a unique index keeps one per root). */
  async insert(row: SyncRow): Promise<boolean> {
    try {
      await this.db.insertInto('storage_syncs').values(row).execute();
      return true;
    } catch (error) {
      if (isUniqueViolation(error)) return false;
      throw error;
    }
  }

  find(id: string): Promise<SyncRow | undefined> {
    return this.db.selectFrom('storage_syncs').selectAll().where('id', '=', id).executeTakeFirst();
  }

  findByTask(taskId: string): Promise<SyncRow | undefined> {
    return this.db.selectFrom('storage_syncs').selectAll().where('task_id', '=', taskId).executeTakeFirst();
  }

  recent(limit = 50): Promise<SyncRow[]> {
    return this.db.selectFrom('storage_syncs').selectAll().orderBy('created_at', 'desc').orderBy('id', 'desc').limit(limit).execute();
  }

  running(): Promise<SyncRow[]> {
    return this.db.selectFrom('storage_syncs').selectAll().where('status', '=', 'running').execute();
  }

  async status(id: string): Promise<string | undefined> {
    return (await this.db.selectFrom('storage_syncs').select('status').where('id', '=', id).executeTakeFirst())?.status;
  }

  async progress(id: string, bytesDone: number, bytesTotal: number): Promise<void> {
    await this.db
      .updateTable('storage_syncs')
      .set({ bytes_done: bytesDone, bytes_total: bytesTotal, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .execute();
  }

  async heartbeat(id: string): Promise<void> {
    await this.db.updateTable('storage_syncs').set({ updated_at: new Date().toISOString() }).where('id', '=', id).where('status', '=', 'running').execute();
  }

  /** Ends a running sync; false when it was not running any more (canceled or ended elsewhere). */
  async end(id: string, status: 'completed' | 'canceled' | 'failure', error: string | null = null, staleBefore?: string): Promise<boolean> {
    let query = this.db
      .updateTable('storage_syncs')
      .set({ status, error, updated_at: new Date().toISOString() })
      .where('id', '=', id)
      .where('status', '=', 'running');
    if (staleBefore) query = query.where('updated_at', '<', staleBefore);
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /** Every node of a root (trashed ones too): `root_id` names the root on every node below it. */
  nodesOfRoot(rootId: string): Promise<NodeRow[]> {
    return this.db.selectFrom('nodes').selectAll().where('root_id', '=', rootId).execute();
  }

  async pinnedHashes(syncId: string): Promise<Set<string>> {
    const rows = await this.db.selectFrom('storage_sync_pins').select('hash').where('sync_id', '=', syncId).execute();
    return new Set(rows.map((r) => r.hash));
  }

  /**
   * Holds one reference on a blob of the target for this sync (its row is created on
   * first use), so the collector cannot take it between the copy and the switch.
   */
  async pin(syncId: string, backend: string, hash: string, size: number): Promise<void> {
    await this.db.transaction().execute(async (trx) => {
      const inserted = await trx
        .insertInto('storage_sync_pins')
        .values({ sync_id: syncId, backend, hash, size })
        .onConflict((oc) => oc.columns(['sync_id', 'backend', 'hash']).doNothing())
        .executeTakeFirst();
      if (Number(inserted.numInsertedOrUpdatedRows ?? 0) !== 1) return;
      await addBlobRefs(trx, backend, hash, size, 1);
    });
  }

  /** Drops every reference this sync holds; blobs left at 0 are the collector's. */
  async releasePins(syncId: string): Promise<void> {
    await this.db.transaction().execute((trx) => releasePins(trx, syncId));
  }

  /**
   * Moves a root to `target` in one transaction: every folder, and every file whose blob
   * this sync copied, gets the target backend; their references move from the old
   * backend's blob rows to the target's. Files it cannot switch yet (added since the last
   * copy pass) stay where they are, still readable; answers how many. With none left the
   * sync is marked completed in the same transaction.
   */
  async switchBackend(sync: SyncRow, pinned: Set<string>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await assertRunning(trx, sync.id);
      const nodes = await trx.selectFrom('nodes').selectAll().where('root_id', '=', sync.root_id).where('backend', '<>', sync.target).execute();
      const switching: string[] = [];
      const refs = new Map<string, WantedBlob & { count: number }>();
      let left = 0;
      for (const node of nodes) {
        if (node.folder === 1 || !node.content_hash) {
          switching.push(node.id);
          continue;
        }
        if (!pinned.has(node.content_hash)) {
          left += 1;
          continue;
        }
        switching.push(node.id);
        const key = `${node.backend}\u0000${node.content_hash}`;
        const ref = refs.get(key) ?? { backend: node.backend, hash: node.content_hash, size: node.size, count: 0 };
        ref.count += 1;
        refs.set(key, ref);
      }
      for (let i = 0; i < switching.length; i += BATCH) {
        await trx
          .updateTable('nodes')
          .set({ backend: sync.target })
          .where('id', 'in', switching.slice(i, i + BATCH))
          .execute();
      }
      for (const ref of refs.values()) {
        await addBlobRefs(trx, sync.target, ref.hash, ref.size, ref.count);
        await releaseBlobRefs(trx, ref.backend, ref.hash, ref.count);
      }
      if (left === 0) await complete(trx, sync.id);
      return left;
    });
  }

  /**
   * Inserts a copy of a root's live tree as the new root `name` on the target backend, in
   * one transaction, once every live file's blob is pinned there; answers how many live
   * files are not pinned yet (nothing is written then). A live root already called
   * `name` is `NameTakenError`.
   */
  async copyTree(sync: SyncRow, name: string, ownerId: string, pinned: Set<string>): Promise<number> {
    return this.db.transaction().execute(async (trx) => {
      await assertRunning(trx, sync.id);
      const taken = await trx
        .selectFrom('nodes')
        .select('id')
        .where('parent_id', '=', '')
        .where('trash_key', '=', '')
        .where('name', '=', name)
        .executeTakeFirst();
      if (taken) throw new NameTakenError();
      const live = liveNodes(await trx.selectFrom('nodes').selectAll().where('root_id', '=', sync.root_id).execute(), sync.root_id);
      const missing = live.filter((n) => n.folder !== 1 && n.content_hash && !pinned.has(n.content_hash)).length;
      if (missing > 0) return missing;
      const ids = new Map(live.map((n) => [n.id, newId()]));
      const newRootId = ids.get(sync.root_id)!;
      const now = new Date().toISOString();
      const files = live.filter((n) => n.folder !== 1);
      const usage = files.reduce((sum, n) => sum + n.size, 0);
      const rows: NodeRow[] = live.map((n) => ({
        ...n,
        id: ids.get(n.id)!,
        parent_id: n.id === sync.root_id ? '' : ids.get(n.parent_id)!,
        root_id: newRootId,
        name: n.id === sync.root_id ? name : n.name,
        backend: sync.target,
        owner_id: n.id === sync.root_id ? ownerId : n.owner_id,
        volume_limit: null,
        usage_bytes: n.id === sync.root_id ? usage : 0,
        created_at: now,
        updated_at: now,
      }));
      for (let i = 0; i < rows.length; i += BATCH)
        await trx
          .insertInto('nodes')
          .values(rows.slice(i, i + BATCH))
          .execute();
      const counts = new Map<string, { size: number; count: number }>();
      for (const file of files) {
        if (!file.content_hash) continue;
        const entry = counts.get(file.content_hash) ?? { size: file.size, count: 0 };
        entry.count += 1;
        counts.set(file.content_hash, entry);
      }
      for (const [hash, { size, count }] of counts) await addBlobRefs(trx, sync.target, hash, size, count);
      await complete(trx, sync.id);
      return 0;
    });
  }
}

/** The copy's root name is taken by a live root folder. */
export class NameTakenError extends Error {
  constructor() {
    super('root folder name taken');
  }
}

/** The nodes of a root that are live: neither they nor a folder above them trashed. */
export function liveNodes(nodes: NodeRow[], rootId: string): NodeRow[] {
  const byId = new Map(nodes.map((n) => [n.id, n]));
  const memo = new Map<string, boolean>();
  const isLive = (node: NodeRow): boolean => {
    const known = memo.get(node.id);
    if (known !== undefined) return known;
    let live = node.trash_key === '';
    if (live && node.id !== rootId) {
      const parent = byId.get(node.parent_id);
      live = parent !== undefined && isLive(parent);
    }
    memo.set(node.id, live);
    return live;
  };
  return nodes.filter(isLive);
}

async function assertRunning(trx: Kysely<Database>, id: string): Promise<void> {
  const row = await trx.selectFrom('storage_syncs').select('status').where('id', '=', id).executeTakeFirst();
  if (row?.status !== 'running') throw new SyncNotRunningError();
}

/** Marks the sync completed and drops its pins, inside the transaction that finished its work. */
async function complete(trx: Kysely<Database>, id: string): Promise<void> {
  const result = await trx
    .updateTable('storage_syncs')
    .set({ status: 'completed', updated_at: new Date().toISOString() })
    .where('id', '=', id)
    .where('status', '=', 'running')
    .executeTakeFirst();
  if (Number(result.numUpdatedRows) !== 1) throw new SyncNotRunningError();
  await releasePins(trx, id);
}

async function releasePins(trx: Kysely<Database>, syncId: string): Promise<void> {
  const pins = await trx.selectFrom('storage_sync_pins').selectAll().where('sync_id', '=', syncId).execute();
  for (const pin of pins) await releaseBlobRefs(trx, pin.backend, pin.hash, 1);
  await trx.deleteFrom('storage_sync_pins').where('sync_id', '=', syncId).execute();
}

async function addBlobRefs(db: Kysely<Database>, backend: string, hash: string, size: number, count: number): Promise<void> {
  await db
    .insertInto('blobs')
    .values({ backend, hash, size, ref_count: count, created_at: new Date().toISOString() })
    .onConflict((oc) => oc.columns(['backend', 'hash']).doUpdateSet({ ref_count: sql`blobs.ref_count + ${count}` }))
    .execute();
}

async function releaseBlobRefs(db: Kysely<Database>, backend: string, hash: string, count: number): Promise<void> {
  await db
    .updateTable('blobs')
    .set({ ref_count: sql`case when ref_count > ${count} then ref_count - ${count} else 0 end` })
    .where('backend', '=', backend)
    .where('hash', '=', hash)
    .execute();
}
