import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// The id of a plan's backup repository (from the repository's own config), so a process
// that finds another repository, or none, at a local location knows it does not share
// that directory with the process that made the plan. Null for plans made before: their
// id is recorded the first time a process opens their repository.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.alterTable('snapshot_plans').addColumn('repository_id', 'text').execute();
}
