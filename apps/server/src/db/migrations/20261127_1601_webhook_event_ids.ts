import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Each outgoing delivery names the event it carries (event_id, the same for every webhook
// the event goes to), and one webhook holds at most one delivery per event: a second
// enqueue of the same event (a retry, another process, a path that emitted twice) is
// refused by the database instead of being sent again. Older deliveries carried one event
// each, so their own id serves as their event id.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table webhook_deliveries add column event_id text not null default ''`.execute(db);
  await sql`update webhook_deliveries set event_id = id`.execute(db);
  await sql`create unique index webhook_deliveries_one_per_event on webhook_deliveries (webhook_id, event_id)`.execute(db);
}
