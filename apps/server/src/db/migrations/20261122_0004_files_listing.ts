import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A folder's listing in its default order (live items, folders first, then by name)
  // straight from the index: a page of a 100,000-entry folder needs no sort.
  await db.schema
    .createIndex('nodes_listing')
    .on('nodes')
    .columns(['parent_id', 'trash_key', 'folder desc', 'name'])
    .execute();
}
