import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Uploads under concurrency: a session may be keyed by the client's upload id as well
// (`client_key`, '' for clients that send none), one writer at a time per chunk holds a
// lease (until it records the chunk, or its lease runs out), and an upload that links a
// blob holds a pin row while it does, so reference counts can be recounted from rows.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('upload_sessions').addColumn('client_key', 'text', (c) => c.notNull().defaultTo('')).execute();
  await db.schema.dropIndex('upload_sessions_resume').execute();
  await db.schema
    .createIndex('upload_sessions_resume_key')
    .unique()
    .on('upload_sessions')
    .columns(['user_id', 'parent_id', 'file_name', 'file_size', 'client_key'])
    .execute();

  await db.schema
    .createTable('upload_leases')
    .addColumn('session_id', 'text', (c) => c.notNull().references('upload_sessions.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('token', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'bigint', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_leases_pk', ['session_id', 'idx'])
    .execute();

  await db.schema
    .createTable('blob_pins')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('blob_pins_blob').on('blob_pins').columns(['backend', 'hash']).execute();
}
