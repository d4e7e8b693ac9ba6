import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// The old activity log: its rows were copied into the audit trail as `legacy` records
// (20261127_1401), and every row written since then was recorded there too; nothing writes
// or reads `events` any more.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('events').ifExists().execute();
}
