import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// WebDAV dead properties (RFC 4918 PROPPATCH): one row per node and property, named by its
// XML namespace and local name; the value is the property element's content as XML. They
// go with their node (cascade) when the node is purged from the trash.

export async function up(db: Kysely<unknown>): Promise<void> {
  await db.schema
    .createTable('dav_properties')
    .addColumn('node_id', 'text', (c) => c.notNull().references('nodes.id').onDelete('cascade'))
    .addColumn('namespace', 'text', (c) => c.notNull())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('value', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('dav_properties_pk', ['node_id', 'namespace', 'name'])
    .execute();
}
