import { type Insertable, type Kysely, type Transaction, sql } from 'kysely';
import { isSqlite, transactionWithDeferredSync } from '../../db/dialect.js';
import type { Database, NodesTable } from '../../db/schema.js';
import { isUniqueViolation } from '../auth/setup.repo.js';
import { compactRow } from './compact-row.js';
import type { NodeRow } from './ports.js';

export type NewNodeRow = Insertable<NodesTable>;
export type ListSort = 'name' | '-name' | 'size' | '-size' | 'mtime' | '-mtime';

/** A live child with whether the listing user starred it. */
export type ListedNode = NodeRow & { starred_by: string | null };

/** One step of a node's way up to its root: the node itself first. */
export interface ChainLink {
  start_id: string;
  id: string;
  parent_id: string;
  name: string;
  trash_key: string;
  depth: number;
}

/** Rows to insert in one statement; keeps the bound parameters under SQLite's limit. */
const INSERT_BATCH = 200;
/** Guards the recursive queries against a cycle that a bug might leave behind. */
const MAX_DEPTH = 1000;

export { isUniqueViolation };

/**
 * SQL for the file tree: nodes, stars, recents and blob reference counts. The only place
 * that touches those tables. A repo made by `transaction` runs everything in that one
 * transaction.
 */
export class NodesRepo {
  constructor(private readonly db: Kysely<Database>) {}

  /** Runs `fn` in one transaction (or in the current one when already inside). */
  transaction<T>(fn: (repo: NodesRepo) => Promise<T>): Promise<T> {
    if (this.db.isTransaction) return fn(this);
    return this.db.transaction().execute((trx) => fn(new NodesRepo(trx)));
  }

  /**
   * The transaction this repo runs in (undefined outside one): an audit record written
   * through it commits, or rolls back, with the change it describes.
   */
  get trx(): Transaction<Database> | undefined {
    return this.db.isTransaction ? (this.db as Transaction<Database>) : undefined;
  }

  findById(id: string): Promise<NodeRow | undefined> {
    return this.db.selectFrom('nodes').selectAll().where('id', '=', id).executeTakeFirst();
  }

  /** The nodes with the given ids that exist, in any order. */
  findByIds(ids: string[]): Promise<NodeRow[]> {
    if (ids.length === 0) return Promise.resolve([]);
    return this.db.selectFrom('nodes').selectAll().where('id', 'in', ids).execute();
  }

  /**
   * Takes the tree lock of the given roots until the current transaction ends: every change
   * to where a node lives or what it is called (move, copy, rename, restore, create, add)
   * holds the locks of the roots it touches, so what it reads about ancestry and paths stays
   * true until it commits. PostgreSQL: the root rows `FOR UPDATE`, in id order (two changes
   * over the same roots cannot deadlock). SQLite: a write first, which takes the database's
   * one write lock before anything is read (what `BEGIN IMMEDIATE` does).
   */
  async lockRoots(rootIds: string[]): Promise<void> {
    const ids = [...new Set(rootIds)].sort();
    if (ids.length === 0) return;
    if (isSqlite(this.db)) {
      await this.db
        .updateTable('nodes')
        .set({ usage_bytes: sql`usage_bytes` })
        .where('id', 'in', ids)
        .execute();
      return;
    }
    await this.db.selectFrom('nodes').select('id').where('id', 'in', ids).orderBy('id').forUpdate().execute();
  }

  /** The live node called `name` under `parentId` ('' for the top level). */
  findLiveChild(parentId: string, name: string): Promise<NodeRow | undefined> {
    return this.db.selectFrom('nodes').selectAll().where('parent_id', '=', parentId).where('name', '=', name).where('trash_key', '=', '').executeTakeFirst();
  }

  /** Live root folders, by name. */
  liveRoots(): Promise<NodeRow[]> {
    return this.db.selectFrom('nodes').selectAll().where('parent_id', '=', '').where('trash_key', '=', '').orderBy('name').execute();
  }

  /**
   * A page of a folder's live children, folders first, then by `sort` (ties by name and
   * id; by name the ties cannot happen, since live siblings have distinct names);
   * `starred_by` says whether `userId` starred each. `folders` is the number of live
   * sub-folders (from `countLiveChildren`). The page's ids come from the index of the
   * order alone (migration 0006), folders and files apart, so an offset deep into a large
   * folder walks index entries only; then only the page's rows are read.
   */
  async listLiveChildren(parentId: string, userId: string, options: { skip: number; limit: number; sort: ListSort }, folders: number): Promise<ListedNode[]> {
    const ids: string[] = [];
    if (options.skip < folders) {
      ids.push(...(await this.pageIds(parentId, 1, options.sort, options.skip, Math.min(options.limit, folders - options.skip))));
    }
    const rest = options.limit - ids.length;
    if (rest > 0) ids.push(...(await this.pageIds(parentId, 0, options.sort, Math.max(0, options.skip - folders), rest)));
    if (ids.length === 0) return [];
    const rows = await this.db
      .selectFrom('nodes')
      .leftJoin('stars', (join) => join.onRef('stars.node_id', '=', 'nodes.id').on('stars.user_id', '=', userId))
      .selectAll('nodes')
      .select('stars.user_id as starred_by')
      .where('nodes.id', 'in', ids)
      .execute();
    const byId = new Map(rows.map((row) => [row.id, row]));
    // A row deleted between the two reads is left out.
    return ids.map((id) => byId.get(id)).filter((row): row is ListedNode => row !== undefined);
  }

  /** Ids of live folders (1) or files (0) under `parentId` in the listing order, from its covering index. */
  private async pageIds(parentId: string, folder: 0 | 1, sort: ListSort, skip: number, limit: number): Promise<string[]> {
    const direction = sort.startsWith('-') ? 'desc' : 'asc';
    const column = sort.replace('-', '') as 'name' | 'size' | 'mtime';
    let query = this.db.selectFrom('nodes').select('id').where('parent_id', '=', parentId).where('trash_key', '=', '').where('folder', '=', folder);
    query =
      column === 'name'
        ? query.orderBy('name', direction).orderBy('id', direction)
        : query.orderBy(column, direction).orderBy('name', 'asc').orderBy('id', 'asc');
    const rows = await query.offset(skip).limit(limit).execute();
    return rows.map((row) => row.id);
  }

  /**
   * How many live children a folder has, and how many of them are folders: one row of the
   * counts the triggers on `nodes` keep (migration folder_counts), not a count of the
   * folder's index entries; no row means 0 and 0.
   */
  async countLiveChildren(parentId: string): Promise<{ total: number; folders: number }> {
    const row = await this.db.selectFrom('tree_changes').select(['live_children', 'live_folders']).where('folder_id', '=', parentId).executeTakeFirst();
    return { total: Number(row?.live_children ?? 0), folders: Number(row?.live_folders ?? 0) };
  }

  /** Live sub-folders of each given folder, by name. */
  liveFoldersUnder(parentIds: string[]): Promise<NodeRow[]> {
    if (parentIds.length === 0) return Promise.resolve([]);
    return this.db
      .selectFrom('nodes')
      .selectAll()
      .where('parent_id', 'in', parentIds)
      .where('folder', '=', 1)
      .where('trash_key', '=', '')
      .orderBy('name')
      .execute();
  }

  /** Live children of one folder in name order (for walking a subtree). */
  liveChildren(parentId: string): Promise<NodeRow[]> {
    return this.db
      .selectFrom('nodes')
      .selectAll()
      .where('parent_id', '=', parentId)
      .where('trash_key', '=', '')
      .orderBy('folder', 'desc')
      .orderBy('name')
      .execute();
  }

  /**
   * One page of `liveChildren`: the next `limit` live children after `after` (a child's
   * folder flag and name, null for the first page), in the same order.
   */
  liveChildrenPage(parentId: string, after: { folder: number; name: string } | null, limit: number): Promise<NodeRow[]> {
    let query = this.db.selectFrom('nodes').selectAll().where('parent_id', '=', parentId).where('trash_key', '=', '');
    if (after) query = query.where((eb) => eb.or([eb('folder', '<', after.folder), eb.and([eb('folder', '=', after.folder), eb('name', '>', after.name)])]));
    return query
      .orderBy('folder', 'desc')
      .orderBy('name')
      .limit(limit)
      .execute()
      .then((rows) => rows.map(compactRow));
  }

  /** Which of `names` are taken by live nodes under `parentId`. */
  async takenNames(parentId: string, names: string[]): Promise<Set<string>> {
    if (names.length === 0) return new Set();
    const rows = await this.db
      .selectFrom('nodes')
      .select('name')
      .where('parent_id', '=', parentId)
      .where('trash_key', '=', '')
      .where('name', 'in', names)
      .execute();
    return new Set(rows.map((r) => r.name));
  }

  /** The way up from each node to its root, every node included (trashed ones too). */
  async chains(ids: string[]): Promise<ChainLink[]> {
    if (ids.length === 0) return [];
    const result = await sql<ChainLink>`
      with recursive chain(start_id, id, parent_id, name, trash_key, depth) as (
        select id, id, parent_id, name, trash_key, 0 from nodes where id in (${sql.join(ids)})
        union all
        select c.start_id, n.id, n.parent_id, n.name, n.trash_key, c.depth + 1
        from nodes n join chain c on n.id = c.parent_id
        where c.depth < ${MAX_DEPTH}
      )
      select start_id, id, parent_id, name, trash_key, depth from chain`.execute(this.db);
    return result.rows.map((r) => ({ ...r, depth: Number(r.depth) }));
  }

  /**
   * The longest path below a node, in UTF-8 bytes relative to it (`/a/b/name` counts 10):
   * what a move or rename adds to the node's new path. Trashed nodes and what lies under
   * them are left out (a restore checks its own). 0 for a file or an empty folder.
   */
  async deepestBelow(id: string): Promise<number> {
    const result = await sql<{ bytes: number | string | null }>`
      with recursive sub(id, bytes, depth) as (
        select id, 0, 0 from nodes where id = ${id}
        union all
        select n.id, s.bytes + 1 + octet_length(n.name), s.depth + 1 from nodes n join sub s on n.parent_id = s.id
        where s.depth < ${MAX_DEPTH} and n.trash_key = ''
      )
      select max(bytes) as bytes from sub`.execute(this.db);
    return Number(result.rows[0]?.bytes ?? 0);
  }

  /** A node and everything below it; with `liveOnly`, trashed nodes and what lies under them are left out. */
  async subtree(id: string, liveOnly: boolean): Promise<NodeRow[]> {
    const live = liveOnly ? sql`and n.trash_key = ''` : sql``;
    const result = await sql<NodeRow>`
      with recursive sub(id, depth) as (
        select id, 0 from nodes where id = ${id}
        union all
        select n.id, s.depth + 1 from nodes n join sub s on n.parent_id = s.id
        where s.depth < ${MAX_DEPTH} ${live}
      )
      select nodes.* from nodes join sub on sub.id = nodes.id`.execute(this.db);
    return result.rows;
  }

  async insert(rows: NewNodeRow[]): Promise<void> {
    for (let i = 0; i < rows.length; i += INSERT_BATCH) {
      await this.db
        .insertInto('nodes')
        .values(rows.slice(i, i + INSERT_BATCH))
        .execute();
    }
  }

  async update(id: string, patch: Partial<Omit<NodeRow, 'id'>>): Promise<void> {
    await this.db.updateTable('nodes').set(patch).where('id', '=', id).execute();
  }

  /** Gives nodes another root (after a move between roots). */
  async setRoot(ids: string[], rootId: string): Promise<void> {
    for (let i = 0; i < ids.length; i += INSERT_BATCH) {
      await this.db
        .updateTable('nodes')
        .set({ root_id: rootId })
        .where('id', 'in', ids.slice(i, i + INSERT_BATCH))
        .execute();
    }
  }

  async delete(ids: string[]): Promise<void> {
    for (let i = 0; i < ids.length; i += INSERT_BATCH) {
      await this.db
        .deleteFrom('nodes')
        .where('id', 'in', ids.slice(i, i + INSERT_BATCH))
        .execute();
    }
  }

  /**
   * Adds `bytes` (negative to release) to a root's usage in one statement. With
   * `enforce`, refuses (answers false, nothing changed) when the result would pass the
   * root's volume limit; concurrent adds cannot both slip under it.
   */
  async addUsage(rootId: string, bytes: number, enforce: boolean): Promise<boolean> {
    let query = this.db
      .updateTable('nodes')
      .set({ usage_bytes: sql`usage_bytes + ${bytes}` })
      .where('id', '=', rootId);
    if (enforce && bytes > 0) {
      query = query.where((eb) => eb.or([eb('volume_limit', 'is', null), eb(sql`usage_bytes + ${bytes}`, '<=', eb.ref('volume_limit'))]));
    }
    const result = await query.executeTakeFirst();
    return Number(result.numUpdatedRows) === 1;
  }

  /**
   * Moves bytes between the parts of a root's usage (versions, trash): the total
   * (`usage_bytes`, which the limit applies to) is changed by `addUsage` alone.
   */
  async addBreakdown(rootId: string, parts: { versions?: number; trash?: number }): Promise<void> {
    const versions = parts.versions ?? 0;
    const trash = parts.trash ?? 0;
    if (versions === 0 && trash === 0) return;
    await this.db
      .updateTable('nodes')
      .set({ version_bytes: sql`version_bytes + ${versions}`, trash_bytes: sql`trash_bytes + ${trash}` })
      .where('id', '=', rootId)
      .execute();
  }

  /** One more (or `count` more) reference to a blob; creates its row on first use. */
  async addBlobRefs(backend: string, hash: string, size: number, count = 1): Promise<void> {
    await this.db
      .insertInto('blobs')
      .values({ backend, hash, size, ref_count: count, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['backend', 'hash']).doUpdateSet({ ref_count: sql`blobs.ref_count + ${count}` }))
      .execute();
  }

  /** Drops references; a blob at 0 is left for the orphan collector of the transfer side. */
  async releaseBlobRefs(backend: string, hash: string, count: number): Promise<void> {
    await this.db
      .updateTable('blobs')
      .set({ ref_count: sql`case when ref_count > ${count} then ref_count - ${count} else 0 end` })
      .where('backend', '=', backend)
      .where('hash', '=', hash)
      .execute();
  }

  async setStar(userId: string, nodeId: string, starred: boolean): Promise<void> {
    if (!starred) {
      await this.db.deleteFrom('stars').where('user_id', '=', userId).where('node_id', '=', nodeId).execute();
      return;
    }
    await this.db
      .insertInto('stars')
      .values({ user_id: userId, node_id: nodeId, created_at: new Date().toISOString() })
      .onConflict((oc) => oc.columns(['user_id', 'node_id']).doNothing())
      .execute();
  }

  /** Which of `nodeIds` the user starred. */
  async starredAmong(userId: string, nodeIds: string[]): Promise<Set<string>> {
    if (nodeIds.length === 0) return new Set();
    const rows = await this.db.selectFrom('stars').select('node_id').where('user_id', '=', userId).where('node_id', 'in', nodeIds).execute();
    return new Set(rows.map((r) => r.node_id));
  }

  /** The user's starred nodes not trashed themselves (ancestors are the caller's to check), newest star first. */
  starred(userId: string, limit: number): Promise<NodeRow[]> {
    return this.db
      .selectFrom('stars')
      .innerJoin('nodes', 'nodes.id', 'stars.node_id')
      .selectAll('nodes')
      .where('stars.user_id', '=', userId)
      .where('nodes.trash_key', '=', '')
      .orderBy('stars.created_at', 'desc')
      .limit(limit)
      .execute();
  }

  async touch(userId: string, nodeId: string, at: string): Promise<void> {
    const upsert = (db: Kysely<Database>) =>
      db
        .insertInto('recents')
        .values({ user_id: userId, node_id: nodeId, used_at: at })
        .onConflict((oc) => oc.columns(['user_id', 'node_id']).doUpdateSet({ used_at: at }))
        .execute();
    // Alone (a download's), not waited onto the disk: a Recent entry lost to a power cut is
    // harmless, and each download waited for an fsync on the event loop for it.
    if (this.db.isTransaction) await upsert(this.db);
    else await transactionWithDeferredSync(this.db, upsert);
  }

  /** Files the user opened or added, not trashed themselves, newest first. */
  recent(userId: string, limit: number): Promise<NodeRow[]> {
    return this.db
      .selectFrom('recents')
      .innerJoin('nodes', 'nodes.id', 'recents.node_id')
      .selectAll('nodes')
      .where('recents.user_id', '=', userId)
      .where('nodes.trash_key', '=', '')
      .where('nodes.folder', '=', 0)
      .orderBy('recents.used_at', 'desc')
      .limit(limit)
      .execute();
  }

  /** Trashed items (their own trash entries), newest first; only those trashed by `trashedBy` when given. */
  async trashed(options: { trashedBy?: string; skip: number; limit: number }): Promise<{ rows: NodeRow[]; total: number }> {
    // A literal, not a parameter: SQLite uses the partial index nodes_trash_listing only for a
    // condition it can see at prepare time.
    let base = this.db.selectFrom('nodes').where(sql<boolean>`trash_key <> ''`);
    if (options.trashedBy) base = base.where('trashed_by', '=', options.trashedBy);
    const rows = await base.selectAll().orderBy('trashed_at', 'desc').orderBy('id', 'desc').offset(options.skip).limit(options.limit).execute();
    // SQLite, without statistics, counts through the whole covering name index (every node)
    // rather than the partial index of the trash entries unless told.
    const from = isSqlite(this.db) ? sql`nodes indexed by nodes_trash_listing` : sql`nodes`;
    const mine = options.trashedBy ? sql`and trashed_by = ${options.trashedBy}` : sql``;
    const count = await sql<{ n: number | string }>`select count(*) as n from ${from} where trash_key <> '' ${mine}`.execute(this.db);
    return { rows, total: Number(count.rows[0]?.n ?? 0) };
  }

  /** Ids of every trash entry. */
  async trashedIds(): Promise<string[]> {
    const rows = await this.db.selectFrom('nodes').select('id').where('trash_key', '<>', '').orderBy('id').execute();
    return rows.map((r) => r.id);
  }

  /** Ids of the trash entries trashed before `before` (ISO), oldest first. */
  async trashedBefore(before: string): Promise<string[]> {
    const rows = await this.db.selectFrom('nodes').select('id').where('trash_key', '<>', '').where('trashed_at', '<', before).orderBy('trashed_at').execute();
    return rows.map((r) => r.id);
  }

  /** Usage of every root per backend (live and trashed roots), with the roots' limits. */
  allRoots(): Promise<Pick<NodeRow, 'id' | 'name' | 'backend' | 'usage_bytes' | 'volume_limit' | 'trash_key'>[]> {
    return this.db.selectFrom('nodes').select(['id', 'name', 'backend', 'usage_bytes', 'volume_limit', 'trash_key']).where('parent_id', '=', '').execute();
  }
}
