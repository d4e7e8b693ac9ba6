import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  for (const [name, type, fallback] of [
    ['mfa', 'text', 'none'],
    ['otp_last_step', 'bigint', 0],
    ['failed_logins', 'integer', 0],
  ] as const) {
    await db.schema
      .alterTable('users')
      .addColumn(name, type, (c) => c.notNull().defaultTo(fallback))
      .execute();
  }
  for (const name of ['otp_secret', 'otp_pending_secret', 'locked_until']) {
    await db.schema.alterTable('users').addColumn(name, 'text').execute();
  }

  await db.schema
    .createTable('sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('last_used_at', 'text', (c) => c.notNull())
    .addColumn('revoked_at', 'text')
    .addColumn('ip', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('user_agent', 'text', (c) => c.notNull().defaultTo(''))
    .execute();
  await db.schema.createIndex('sessions_user').on('sessions').column('user_id').execute();

  await db.schema
    .createTable('refresh_tokens')
    .addColumn('token_hash', 'text', (c) => c.primaryKey())
    .addColumn('session_id', 'text', (c) => c.notNull().references('sessions.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('refresh_tokens_session').on('refresh_tokens').column('session_id').execute();

  await db.schema
    .createTable('login_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('method', 'text', (c) => c.notNull())
    .addColumn('code_hash', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('attempts', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('used_at', 'text')
    .execute();
  await db.schema.createIndex('login_challenges_user').on('login_challenges').columns(['user_id', 'created_at']).execute();

  await db.schema
    .createTable('login_throttle')
    .addColumn('ip', 'text', (c) => c.primaryKey())
    .addColumn('failures', 'integer', (c) => c.notNull())
    .addColumn('window_start', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('webauthn_credentials')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('public_key', 'text', (c) => c.notNull())
    .addColumn('counter', 'bigint', (c) => c.notNull())
    .addColumn('transports', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('webauthn_credentials_user').on('webauthn_credentials').column('user_id').execute();

  await db.schema
    .createTable('webauthn_challenges')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text')
    .addColumn('challenge', 'text', (c) => c.notNull())
    .addColumn('purpose', 'text', (c) => c.notNull())
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('events')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('service', 'text', (c) => c.notNull())
    .addColumn('message', 'text', (c) => c.notNull())
    .addColumn('user_id', 'text')
    .addColumn('ip', 'text')
    .execute();
  await db.schema.createIndex('events_user_created').on('events').columns(['user_id', 'created_at']).execute();
}
