import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Share links with their recipients, approval requests for secure folders with their
// items, and the reservations that count a download only once it completes.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('requests')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('type', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('requester_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('approver_id', 'text', (c) => c.references('users.id').onDelete('set null'))
    .addColumn('reason', 'text', (c) => c.notNull())
    .addColumn('decision_reason', 'text')
    .addColumn('download_limit', 'integer', (c) => c.notNull().defaultTo(1))
    // Downloads started and not given back (in flight or completed), and those completed.
    .addColumn('downloads_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads_done', 'integer', (c) => c.notNull().defaultTo(0))
    // A share request allows one link: set when that link is created.
    .addColumn('used_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('approved_at', 'text')
    .addColumn('final_approved_at', 'text')
    .addColumn('processed_at', 'text')
    // While PENDING: when it lapses undecided; once APPROVED: the end of its validity.
    .addColumn('expires_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('requests_requester').on('requests').columns(['requester_id', 'created_at']).execute();
  await db.schema.createIndex('requests_status').on('requests').columns(['status', 'expires_at']).execute();

  await db.schema
    .createTable('request_items')
    .addColumn('request_id', 'text', (c) => c.notNull().references('requests.id').onDelete('cascade'))
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('path', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('request_items_pk', ['request_id', 'node_id'])
    .execute();

  await db.schema
    .createTable('shares')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('key', 'text', (c) => c.notNull())
    .addColumn('key_hash', 'text', (c) => c.notNull().unique())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('scope', 'text', (c) => c.notNull())
    .addColumn('password_hash', 'text')
    .addColumn('expires_at', 'text')
    .addColumn('download_limit', 'integer')
    .addColumn('downloads_used', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('downloads_done', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('preview', 'integer', (c) => c.notNull().defaultTo(1))
    // The approved share request a link inside a secure folder was created under.
    .addColumn('request_id', 'text', (c) => c.references('requests.id').onDelete('set null'))
    // Set when the item was deleted or restored: the link has expired for good.
    .addColumn('expired_at', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('shares_creator').on('shares').columns(['created_by', 'created_at']).execute();
  await db.schema.createIndex('shares_node').on('shares').column('node_id').execute();

  await db.schema
    .createTable('share_recipients')
    .addColumn('share_id', 'text', (c) => c.notNull().references('shares.id').onDelete('cascade'))
    .addColumn('entity_type', 'text', (c) => c.notNull())
    .addColumn('entity_id', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('share_recipients_pk', ['share_id', 'entity_type', 'entity_id'])
    .execute();
  await db.schema.createIndex('share_recipients_entity').on('share_recipients').columns(['entity_type', 'entity_id']).execute();

  // One row per download in flight: given back when it fails, or after a day when the
  // process serving it died.
  await db.schema
    .createTable('download_reservations')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('target_id', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('download_reservations_created').on('download_reservations').column('created_at').execute();
}
