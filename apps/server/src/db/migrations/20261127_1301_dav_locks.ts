import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// WebDAV write locks (RFC 4918). A lock is on a URL (a tree path), so it holds across
// processes here in the database; `root` is the first path segment, the scope within which
// locks can conflict (one serial lock per root orders the LOCK requests). Expired rows are
// ignored by every check and purged by housekeeping. An account's locks go with the account.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dav_locks')
    .addColumn('token', 'text', (c) => c.primaryKey())
    .addColumn('root', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addColumn('depth', 'text', (c) => c.notNull())
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('owner_xml', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('account_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('timeout_seconds', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('dav_locks_root_path').on('dav_locks').columns(['root', 'path']).execute();
  await db.schema.createIndex('dav_locks_expires').on('dav_locks').column('expires_at').execute();
}
