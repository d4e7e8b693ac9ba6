import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('users')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('email', 'text', (c) => c.notNull().unique())
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('role', 'text', (c) => c.notNull())
    .addColumn('role_level', 'integer', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('approved', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('provider', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('profile_image', 'text')
    .addColumn('last_login', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('access_log')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('ip', 'text', (c) => c.notNull())
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('url', 'text', (c) => c.notNull())
    .addColumn('status', 'integer', (c) => c.notNull())
    .addColumn('response_time_ms', 'double precision', (c) => c.notNull())
    .addColumn('content_length', 'bigint')
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_id', 'text')
    .execute();
  await db.schema.createIndex('access_log_created_at').on('access_log').column('created_at').execute();

  await db.schema
    .createTable('settings')
    .addColumn('key', 'text', (c) => c.primaryKey())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull().defaultTo(sql`CURRENT_TIMESTAMP`))
    .execute();
}
