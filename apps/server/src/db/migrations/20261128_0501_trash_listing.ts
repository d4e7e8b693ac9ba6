import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The trash page (newest first) and its count read the trash entries alone: without it both
  // scanned every node (at 1,000,000 files, seconds per page). Partial, so live nodes, nearly
  // all of them, are not in it. Queries must name `trash_key <> ''` as a literal for SQLite to use it.
  await sql`create index nodes_trash_listing on nodes (trashed_at desc, id desc) where trash_key <> ''`.execute(db);
}
