import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// At most one running storage sync per root folder, kept by the database: starting a sync
// checked for a running one and then inserted, so two starts at the same moment (two
// processes) could both run. Any such pair already there keeps its newest sync running;
// the others are marked failed as interrupted (what recovery marks a stopped sync).

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`
    update storage_syncs set status = 'failure', error = 'interrupted'
    where status = 'running' and exists (
      select 1 from storage_syncs newer
      where newer.root_id = storage_syncs.root_id and newer.status = 'running'
        and (newer.created_at > storage_syncs.created_at or (newer.created_at = storage_syncs.created_at and newer.id > storage_syncs.id))
    )`.execute(db);
  await sql`create unique index storage_syncs_one_running on storage_syncs (root_id) where status = 'running'`.execute(db);
}
