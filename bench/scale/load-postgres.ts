// Writes an installation's rows straight into a PostgreSQL database: multi-row inserts
// from arrays (`unnest`), thousands of rows a statement. As a bulk load does, the secondary
// indexes of the tables written (trigram, character-pair and listing indexes) are dropped
// and built again afterwards, and the product's row triggers are replaced by their effect
// in one statement; a trigger this loader does not know stops it.
import pg from 'pg';
import { FOLDER_COUNTS } from './folder-counts.js';
import { fileCounts } from './installation.js';
import { NODE_COLUMNS, type NodeRow, type Owner, fileRows, folderRows } from './rows.js';

const BATCH = 5_000;
const NODE_TYPES: Record<(typeof NODE_COLUMNS)[number], string> = {
  id: 'text',
  parent_id: 'text',
  root_id: 'text',
  name: 'text',
  folder: 'int',
  size: 'bigint',
  mtime: 'text',
  content_hash: 'text',
  blob_key: 'text',
  backend: 'text',
  owner_id: 'text',
  trash_key: 'text',
  trashed_at: 'text',
  trashed_by: 'text',
  original_parent_id: 'text',
  created_at: 'text',
  updated_at: 'text',
};
const TABLES = ['nodes', 'blobs', 'search_texts', 'search_text_bigrams'];
/** Row triggers on TABLES, and the statement that has their effect on the rows a load added ($1: the ids that were there before). */
const TRIGGERS: Record<string, string> = {
  tree_changes_insert_delete: `insert into tree_changes (folder_id, changes) select parent_id, count(*) from nodes where not (id = any($1)) group by parent_id
    on conflict (folder_id) do update set changes = tree_changes.changes + excluded.changes`,
  tree_changes_update: '',
};

/** Separates the character pairs of one text in a single array element (no pair holds it). */
const GRAM_SEPARATOR = '\u001f';

/** Inserts the folders and files of an installation of `files` live files; answers the root's counters and the folder ids. */
export async function loadPostgres(url: string, owner: Owner, files: number): Promise<{ usage: number; trash: number; folderIds: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('set synchronous_commit = off');
    await client.query('set maintenance_work_mem = 524288');
    const indexes = (
      await client.query<{ name: string; definition: string }>(
        `select i.indexname as name, i.indexdef as definition from pg_indexes i
         where i.schemaname = 'public' and i.tablename = any($1)
           and not exists (select 1 from pg_constraint c where c.conname = i.indexname)`,
        [TABLES],
      )
    ).rows;
    const triggers = (
      await client.query<{ name: string; tableName: string }>(
        `select t.tgname as name, c.relname as "tableName" from pg_trigger t join pg_class c on c.oid = t.tgrelid where c.relname = any($1) and not t.tgisinternal`,
        [TABLES],
      )
    ).rows;
    const unknown = triggers.filter((t) => !(t.name in TRIGGERS));
    if (unknown.length > 0) throw new Error(`the loader does not know the triggers ${unknown.map((t) => t.name).join(', ')}`);
    const existing = (await client.query<{ id: string }>('select id from nodes')).rows.map((row) => row.id);
    for (const trigger of triggers) await client.query(`alter table ${trigger.tableName} disable trigger ${trigger.name}`);
    for (const index of indexes) await client.query(`drop index ${index.name}`);

    const { rows: folders, ids } = folderRows(owner);
    for (let i = 0; i < folders.length; i += BATCH) await insertNodes(client, folders.slice(i, i + BATCH));

    const { live } = fileCounts(files);
    let usage = 0;
    let trash = 0;
    let batch: ReturnType<typeof fileRows> extends Generator<infer T> ? T[] : never = [];
    const flush = async () => {
      if (batch.length === 0) return;
      await client.query('begin');
      await insertNodes(
        client,
        batch.map((b) => b.node),
      );
      await client.query(
        `insert into blobs (backend, hash, size, ref_count, created_at) select 'server', h, s, 1, $3 from unnest($1::text[], $2::bigint[]) as t(h, s)
         on conflict (backend, hash) do update set ref_count = blobs.ref_count + 1`,
        [batch.map((b) => b.blob.hash), batch.map((b) => b.blob.size), owner.now],
      );
      const stored = await client.query<{ seq: string; hash: string }>(
        `insert into search_texts (hash, status, body, truncated, updated_at) select h, s, b, 0, $4 from unnest($1::text[], $2::text[], $3::text[]) as t(h, s, b)
         on conflict (hash) do nothing returning seq, hash`,
        [batch.map((b) => b.text.hash), batch.map((b) => b.text.status), batch.map((b) => b.text.body), owner.now],
      );
      const grams = new Map(batch.filter((b) => b.text.grams.length > 0).map((b) => [b.text.hash, b.text.grams.join(GRAM_SEPARATOR)]));
      const pairs = stored.rows.filter((row) => grams.has(row.hash));
      if (pairs.length > 0) {
        await client.query(`insert into search_text_bigrams (seq, grams) select s, string_to_array(g, $3) from unnest($1::bigint[], $2::text[]) as t(s, g)`, [
          pairs.map((p) => p.seq),
          pairs.map((p) => grams.get(p.hash)),
          GRAM_SEPARATOR,
        ]);
      }
      await client.query('commit');
      batch = [];
    };
    for (const rows of fileRows(owner, files, ids)) {
      usage += rows.blob.size;
      if (rows.spec.index >= live) trash += rows.blob.size;
      batch.push(rows);
      if (batch.length === BATCH) await flush();
    }
    await flush();
    await client.query('update nodes set usage_bytes = $1, trash_bytes = $2 where id = $3', [usage, trash, owner.rootId]);
    for (const index of indexes) await client.query(index.definition);
    for (const trigger of triggers) {
      if (TRIGGERS[trigger.name]) await client.query(TRIGGERS[trigger.name]!, [existing]);
      await client.query(`alter table ${trigger.tableName} enable trigger ${trigger.name}`);
    }
    // The folders' live child counts (migration folder_counts), counted again over every node, where the server built has them.
    const counted = await client.query(`select 1 from information_schema.columns where table_name = 'tree_changes' and column_name = 'live_children'`);
    if (counted.rowCount) await client.query(FOLDER_COUNTS);
    // What autovacuum does after a bulk load (statistics, GIN pending lists merged), as bench/search does.
    await client.query('vacuum analyze');
    return { usage, trash, folderIds: ids };
  } finally {
    await client.end();
  }
}

async function insertNodes(client: pg.Client, rows: NodeRow[]): Promise<void> {
  const columns = NODE_COLUMNS.map((column, i) => `$${i + 1}::${NODE_TYPES[column]}[]`);
  await client.query(
    `insert into nodes (${NODE_COLUMNS.join(', ')}) select * from unnest(${columns.join(', ')})`,
    NODE_COLUMNS.map((column) => rows.map((row) => row[column])),
  );
}
