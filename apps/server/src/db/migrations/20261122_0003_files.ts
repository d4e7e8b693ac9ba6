import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  // The file tree. Root folders have parent_id '' (not NULL, so the unique index covers
  // them); live nodes have trash_key '' and trashed ones their own id, so a trashed item
  // never blocks its name.
  await db.schema
    .createTable('nodes')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('root_id', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('folder', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('mtime', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text')
    .addColumn('blob_key', 'text')
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('owner_id', 'text')
    .addColumn('description', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('lock', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('volume_limit', 'bigint')
    .addColumn('usage_bytes', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('trash_key', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('trashed_at', 'text')
    .addColumn('trashed_by', 'text')
    .addColumn('original_parent_id', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('nodes_unique_name').unique().on('nodes').columns(['parent_id', 'name', 'trash_key']).execute();
  await db.schema.createIndex('nodes_root').on('nodes').column('root_id').execute();
  await db.schema.createIndex('nodes_trashed').on('nodes').column('trashed_at').execute();
  await db.schema.createIndex('nodes_content_hash').on('nodes').column('content_hash').execute();

  // File contents, addressed by backend and SHA-256; shared by identical files.
  await db.schema
    .createTable('blobs')
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('hash', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('ref_count', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('blobs_pk', ['backend', 'hash'])
    .execute();

  await db.schema
    .createTable('upload_sessions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('user_id', 'text', (c) => c.notNull())
    .addColumn('parent_id', 'text', (c) => c.notNull())
    .addColumn('file_name', 'text', (c) => c.notNull())
    .addColumn('file_size', 'bigint', (c) => c.notNull())
    .addColumn('total_chunks', 'integer', (c) => c.notNull())
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema
    .createIndex('upload_sessions_resume')
    .unique()
    .on('upload_sessions')
    .columns(['user_id', 'parent_id', 'file_name', 'file_size'])
    .execute();

  await db.schema
    .createTable('upload_chunks')
    .addColumn('session_id', 'text', (c) => c.notNull().references('upload_sessions.id').onDelete('cascade'))
    .addColumn('idx', 'integer', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('upload_chunks_pk', ['session_id', 'idx'])
    .execute();

  await db.schema
    .createTable('stars')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('node_id', 'text', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('stars_pk', ['user_id', 'node_id'])
    .execute();

  await db.schema
    .createTable('recents')
    .addColumn('user_id', 'text', (c) => c.notNull().references('users.id').onDelete('cascade'))
    .addColumn('node_id', 'text', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .addColumn('used_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('recents_pk', ['user_id', 'node_id'])
    .execute();
  await db.schema.createIndex('recents_user_time').on('recents').columns(['user_id', 'used_at']).execute();
}
