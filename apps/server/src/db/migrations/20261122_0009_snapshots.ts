import type { Kysely } from 'kysely';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.

export async function up(db: Kysely<unknown>): Promise<void> {
  // A snapshot plan: what to back up, where the repository lives, its password (sealed
  // with a key derived from the server secret) and up to five schedules.
  await db.schema
    .createTable('snapshot_plans')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('name', 'text', (c) => c.notNull())
    .addColumn('backup_type', 'text', (c) => c.notNull())
    .addColumn('target_all', 'integer', (c) => c.notNull())
    /** JSON array of root folder ids. */
    .addColumn('target_roots', 'text', (c) => c.notNull().defaultTo('[]'))
    .addColumn('location_kind', 'text', (c) => c.notNull())
    .addColumn('location_path', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location_bucket', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('location_prefix', 'text', (c) => c.notNull().defaultTo(''))
    .addColumn('password_sealed', 'text', (c) => c.notNull())
    .addColumn('created_by', 'text')
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addColumn('updated_at', 'text', (c) => c.notNull())
    .execute();

  await db.schema
    .createTable('snapshot_schedules')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('plan_id', 'text', (c) => c.notNull().references('snapshot_plans.id').onDelete('cascade'))
    /** Days of the week, comma separated, 0 Sunday … 6 Saturday. */
    .addColumn('days', 'text', (c) => c.notNull())
    /** HH:mm in the server's time zone. */
    .addColumn('time', 'text', (c) => c.notNull())
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('position', 'integer', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .execute();
  await db.schema.createIndex('snapshot_schedules_plan').on('snapshot_schedules').columns(['plan_id', 'position']).execute();

  // One row per schedule and due minute: the process whose insert wins runs it.
  await db.schema
    .createTable('snapshot_slots')
    .addColumn('schedule_id', 'text', (c) => c.notNull().references('snapshot_schedules.id').onDelete('cascade'))
    .addColumn('slot', 'text', (c) => c.notNull())
    .addColumn('created_at', 'text', (c) => c.notNull())
    .addPrimaryKeyConstraint('snapshot_slots_pk', ['schedule_id', 'slot'])
    .execute();

  await db.schema
    .createTable('snapshot_runs')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('plan_id', 'text', (c) => c.notNull().references('snapshot_plans.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    .addColumn('trigger', 'text', (c) => c.notNull())
    .addColumn('backup_type', 'text', (c) => c.notNull())
    .addColumn('task_id', 'text')
    .addColumn('vault_snapshot_id', 'text')
    .addColumn('files', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('bytes_added', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('started_by', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('snapshot_runs_plan').on('snapshot_runs').columns(['plan_id', 'started_at']).execute();
  await db.schema.createIndex('snapshot_runs_started').on('snapshot_runs').column('started_at').execute();

  await db.schema
    .createTable('restores')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('run_id', 'text', (c) => c.notNull().references('snapshot_runs.id').onDelete('cascade'))
    .addColumn('status', 'text', (c) => c.notNull())
    /** JSON array of snapshot paths. */
    .addColumn('items', 'text', (c) => c.notNull())
    .addColumn('target_kind', 'text', (c) => c.notNull())
    .addColumn('target_path', 'text')
    .addColumn('task_id', 'text')
    .addColumn('files', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('size', 'bigint', (c) => c.notNull().defaultTo(0))
    .addColumn('failed', 'integer', (c) => c.notNull().defaultTo(0))
    .addColumn('error', 'text')
    .addColumn('started_by', 'text')
    .addColumn('started_at', 'text', (c) => c.notNull())
    .addColumn('finished_at', 'text')
    .execute();
  await db.schema.createIndex('restores_started').on('restores').column('started_at').execute();

  // At most one snapshot or restore at a time, across every server process: the one row
  // (id 'operation') is held while it runs and refreshed; a stale one can be taken over.
  await db.schema
    .createTable('snapshot_operation')
    .addColumn('id', 'text', (c) => c.primaryKey())
    .addColumn('kind', 'text', (c) => c.notNull())
    .addColumn('ref_id', 'text', (c) => c.notNull())
    .addColumn('holder', 'text', (c) => c.notNull())
    .addColumn('heartbeat_at', 'text', (c) => c.notNull())
    .execute();
}
