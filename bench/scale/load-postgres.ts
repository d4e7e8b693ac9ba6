// Writes an installation's rows straight into a PostgreSQL database: multi-row inserts
// from arrays (`unnest`), thousands of rows a statement, under the product's own indexes.
import pg from 'pg';
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
/** Separates the character pairs of one text in a single array element (no pair holds it). */
const GRAM_SEPARATOR = '\u001f';

/** Inserts the folders and files of an installation of `files` live files; answers the root's counters and the folder ids. */
export async function loadPostgres(url: string, owner: Owner, files: number): Promise<{ usage: number; trash: number; folderIds: string[] }> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    await client.query('set synchronous_commit = off');
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
