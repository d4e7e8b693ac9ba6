import type { Kysely } from 'kysely';
import { isSqlite } from '../dialect.js';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Avatar images in the database instead of one process's data directory, so every server
// process sharing the database serves the same avatars. A few KiB each (re-encoded WebP).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('avatars')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('image', isSqlite(db) ? 'blob' : 'bytea', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
}
