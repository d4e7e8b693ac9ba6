import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Each account's language (ko or en): what its e-mails are written in. Korean by default.

export async function up(db: Kysely<unknown>): Promise<void> {
  await sql`alter table users add column language text not null default 'ko'`.execute(db);
}
