import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Failures per client address are counted in attempt_counters (20261127_0301) now, with the
// other attempt limits; the old per-address table has no reader or writer left.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.dropTable('login_throttle').ifExists().execute();
}
