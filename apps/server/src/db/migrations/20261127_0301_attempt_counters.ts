import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Attempt counters shared by every server process (password, code and call limits), each
// row one fixed window of one key; and named rows that a transaction writes first to hold
// a lock until it ends (the licence seat check and the activation it allows).

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('attempt_counters')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .addColumn('hits', 'integer', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('attempt_counters_window').on('attempt_counters').column('window_start').execute();

  await db.schema
    .createTable('serial_locks')
    .addColumn('name', 'text', (c) => c.primaryKey())
    .addColumn('taken_at', 'text', (c) => c.notNull())
    .execute();
}
