import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

/**
 * The dashboard counts a service's events over a time window (uploads and downloads of
 * the last 30 days): an index by service then time finds them without reading the rest
 * of the activity log.
 */
export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema.createIndex('events_service_created').on('events').columns(['service', 'created_at']).execute();
}
