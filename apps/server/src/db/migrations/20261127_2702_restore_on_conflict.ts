import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// What a restore does over a live file of the same name: keep both (as before) or replace it,
// keeping the live content as a version. A retry does what the first run was asked to.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table restores add column on_conflict text not null default 'keep-both'`.execute(db);
}
