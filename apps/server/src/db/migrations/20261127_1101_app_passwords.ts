import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// App passwords for WebDAV clients: only a keyed hash of each is kept, found by a short
// lookup part of the password itself (not secret on its own) within its account. A name
// is unique per account; revoking deletes the row, and deleting the account deletes its rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('app_passwords')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('lookup', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text')
    .addColumn('last_used_ip', 'text')
    .execute();
  await db.schema.createIndex('app_passwords_user_name').unique().on('app_passwords').columns(['user_id', 'name']).execute();
  await db.schema.createIndex('app_passwords_user_lookup').on('app_passwords').columns(['user_id', 'lookup']).execute();
}
