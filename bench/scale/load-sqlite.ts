// Writes an installation's rows straight into the server's SQLite file. As a bulk load does:
// the secondary indexes of the tables written are dropped and built again afterwards, and
// the product's insert triggers are replaced by the same effect in one statement each (the
// name index's rows, the full-text indexes rebuilt from their content tables, the folders'
// change counters; their live child counts are counted again over every node); the end
// state is what row-by-row inserts leave. A trigger this loader does not know stops it, so
// a new one is never skipped silently.
import path from 'node:path';
import Database from 'better-sqlite3';
import { bigramToken } from '../../apps/server/src/modules/search/search-bigrams.js';
import { FOLDER_COUNTS } from './folder-counts.js';
import { fileCounts } from './installation.js';
import { NODE_COLUMNS, type NodeRow, type Owner, fileRows, folderRows } from './rows.js';

const BATCH = 50_000;
const TABLES = ['nodes', 'search_names', 'search_texts', 'blobs'];

/** After-insert triggers on TABLES, and the statement that has their effect on every row added after `rowid` / `seq`. */
const INSERT_TRIGGERS: Record<string, string> = {
  nodes_search_ai: `insert into search_names (node_id, name) select id, name from nodes where rowid > @nodes order by rowid`,
  search_names_ai: `insert into search_names_fts (search_names_fts) values ('rebuild')`,
  search_names_bigrams_ai: `insert into search_name_bigrams (rowid, grams)
    select s.seq, coalesce((select group_concat(hex(substr(lower(s.name), o.i, 2)), ' ') from search_name_offsets o where o.i < length(s.name)), '')
    from search_names s where s.seq > @names`,
  search_texts_ai: `insert into search_texts_fts (search_texts_fts) values ('rebuild')`,
  tree_changes_insert: `insert into tree_changes (folder_id, changes) select parent_id, count(*) from nodes where rowid > @nodes group by parent_id
    on conflict (folder_id) do update set changes = changes + excluded.changes`,
};
/** The order the effects are replayed in: names before their indexes. */
const REPLAY = ['nodes_search_ai', 'search_names_ai', 'search_names_bigrams_ai', 'search_texts_ai', 'tree_changes_insert'];

/** Inserts the folders and files of an installation of `files` live files; answers the root's counters and the folder ids. */
export function loadSqlite(dataDir: string, owner: Owner, files: number): { usage: number; trash: number; folderIds: string[] } {
  const db = new Database(path.join(dataDir, 'bogwan.sqlite'));
  db.pragma('busy_timeout = 10000');
  // The load alone is not durable (a failed run is thrown away), and keeps its pages in memory.
  db.pragma('synchronous = OFF');
  db.pragma('cache_size = -1000000');
  const schema = db
    .prepare(
      `select type, name, sql from sqlite_master where tbl_name in (${TABLES.map(() => '?').join(', ')}) and type in ('index', 'trigger') and sql is not null`,
    )
    .all(...TABLES) as { type: string; name: string; sql: string }[];
  const indexes = schema.filter((s) => s.type === 'index');
  const triggers = schema.filter((s) => s.type === 'trigger' && /\bafter\s+insert\b/i.test(s.sql));
  const unknown = triggers.filter((t) => !(t.name in INSERT_TRIGGERS));
  if (unknown.length > 0) throw new Error(`the loader does not know the insert triggers ${unknown.map((t) => t.name).join(', ')}`);
  const before = db.prepare(`select (select coalesce(max(rowid), 0) from nodes) as nodes, (select coalesce(max(seq), 0) from search_names) as names`).get();

  for (const trigger of triggers) db.exec(`drop trigger ${trigger.name}`);
  for (const index of indexes) db.exec(`drop index ${index.name}`);

  const insertNode = db.prepare(`insert into nodes (${NODE_COLUMNS.join(', ')}) values (${NODE_COLUMNS.map((c) => `@${c}`).join(', ')})`);
  const insertBlob = db.prepare(`insert into blobs (backend, hash, size, ref_count, created_at) values ('server', ?, ?, 1, ?)
    on conflict (backend, hash) do update set ref_count = blobs.ref_count + 1`);
  const insertText = db.prepare(`insert into search_texts (hash, status, body, truncated, updated_at) values (?, ?, ?, 0, ?) on conflict (hash) do nothing`);
  const insertGrams = db.prepare(`insert into search_text_bigrams (rowid, grams) values (?, ?)`);
  const { rows: folders, ids } = folderRows(owner);
  db.transaction((rows: NodeRow[]) => {
    for (const row of rows) insertNode.run(row);
  })(folders);

  const { live } = fileCounts(files);
  let usage = 0;
  let trash = 0;
  const rows = fileRows(owner, files, ids);
  const addFiles = db.transaction(() => {
    for (let n = 0; n < BATCH; n += 1) {
      const next = rows.next();
      if (next.done) return false;
      const { node, blob, text, spec } = next.value;
      insertNode.run(node);
      insertBlob.run(blob.hash, blob.size, owner.now);
      const stored = insertText.run(text.hash, text.status, text.body, owner.now);
      if (stored.changes === 1 && text.grams.length > 0) insertGrams.run(stored.lastInsertRowid, text.grams.map(bigramToken).join(' '));
      usage += blob.size;
      if (spec.index >= live) trash += blob.size;
    }
    return true;
  });
  while (addFiles()) {
    // one transaction per batch
  }
  db.prepare(`update nodes set usage_bytes = ?, trash_bytes = ? where id = ?`).run(usage, trash, owner.rootId);

  db.transaction(() => {
    for (const index of indexes) db.exec(index.sql);
    for (const name of REPLAY) if (triggers.some((t) => t.name === name)) db.prepare(INSERT_TRIGGERS[name]!).run(before);
    const counted = (db.prepare(`select name from pragma_table_info('tree_changes')`).all() as { name: string }[]).some((c) => c.name === 'live_children');
    if (counted) db.exec(FOLDER_COUNTS);
    for (const trigger of triggers) db.exec(trigger.sql);
  })();
  db.pragma('wal_checkpoint(TRUNCATE)');
  db.close();
  return { usage, trash, folderIds: ids };
}
