import { type Kysely, sql } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// File versions: the earlier contents of a file, kept when it is replaced. A version holds
// a blob reference of its own (its content's blob is not collected while it exists). Each
// root keeps, beside its usage (the sum the volume limit applies to), how much of it is
// versions and how much is trash, incrementally; the trash part is counted once here from
// what is in the trash now. `content_by` is who wrote a file's current content (null: its
// owner). `version_policies` holds a root folder's own retention (null: the global one).

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('file_versions')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('node_id', 'text', (c) => c.notNull())
    .addColumn('root_id', 'text', (c) => c.notNull())
    .addColumn('backend', 'text', (c) => c.notNull())
    .addColumn('content_hash', 'text', (c) => c.notNull())
    .addColumn('blob_key', 'text', (c) => c.notNull())
    .addColumn('size', 'bigint', (c) => c.notNull())
    .addColumn('author_id', 'text')
    .addColumn('written_at', 'text', (c) => c.notNull())
    .addColumn('replaced_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('file_versions_by_node').on('file_versions').columns(['node_id', 'replaced_at']).execute();
  await db.schema.createIndex('file_versions_by_age').on('file_versions').columns(['replaced_at']).execute();
  await db.schema.createIndex('file_versions_by_blob').on('file_versions').columns(['backend', 'content_hash']).execute();

  await db.schema
    .createTable('version_policies')
    .addColumn('root_id', 'text', (c) => c.primaryKey())
    .addColumn('max_versions', 'integer')
    .addColumn('max_age_days', 'integer')
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await sql`alter table nodes add column version_bytes bigint not null default 0`.execute(db);
  await sql`alter table nodes add column trash_bytes bigint not null default 0`.execute(db);
  await sql`alter table nodes add column content_by text`.execute(db);

  // What lies in the trash now (trashed nodes and everything under them), per root; a trashed
  // root folder is left out (its whole usage is its own, it has no live part to show).
  await sql`
    with recursive in_trash(id, root_id) as (
      select id, root_id from nodes where trash_key <> '' and parent_id <> ''
      union
      select n.id, n.root_id from nodes n join in_trash t on n.parent_id = t.id
    )
    update nodes set trash_bytes = coalesce((
      select sum(n.size) from nodes n where n.folder = 0 and n.root_id = nodes.id and n.id in (select id from in_trash)
    ), 0)
    where parent_id = ''`.execute(db);
}
