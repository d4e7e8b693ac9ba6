import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

/**
 * One index per listing order, each ending in `id`, so a page of a large folder is found
 * in the index alone (no sort, no table row read for the entries skipped by the offset).
 * The folder column is compared for equality (folders and files are read apart), so one
 * index serves both directions where the ties follow the direction (name); size and mtime
 * keep their ties by name ascending in both directions and need an index each way.
 */
const ORDERS: [string, string[]][] = [
  ['nodes_list_name', ['name', 'id']],
  ['nodes_list_size', ['size', 'name', 'id']],
  ['nodes_list_size_desc', ['size desc', 'name', 'id']],
  ['nodes_list_mtime', ['mtime', 'name', 'id']],
  ['nodes_list_mtime_desc', ['mtime desc', 'name', 'id']],
];

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, columns] of ORDERS) {
    await db.schema
      .createIndex(name)
      .on('nodes')
      .columns(['parent_id', 'trash_key', 'folder desc', ...columns])
      .execute();
  }
  // nodes_list_name covers everything nodes_listing (parent_id, trash_key, folder desc, name) did.
  await db.schema.dropIndex('nodes_listing').execute();

  // Each write of a chunk gets its own token, so the hash kept while an upload arrives in
  // order can tell whether a chunk it read was written again since (by any process).
  await db.schema.alterTable('upload_chunks').addColumn('token', 'text', (c) => c.notNull().defaultTo('')).execute();
}
