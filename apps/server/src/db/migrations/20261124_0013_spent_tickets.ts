import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Nonces of single-use download tickets already used, until the tickets expire: kept in
// the database so that a ticket is used once even when several server processes share it.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('spent_tickets')
    .addColumn('nonce', 'text', (c) => c.primaryKey())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('spent_tickets_expiry').on('spent_tickets').column('expires_at').execute();
}

