import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Tree changes: per folder, a counter of the changes to its direct children that a snapshot
// records (a child added, removed, renamed, moved in or out, trashed or restored, or given
// new content, mtime or owner). Triggers on `nodes` keep it, in the statement that makes
// the change: every write path counts, also one added later, and the count commits or rolls
// back with the change, on any number of processes. A snapshot keeps the counts it saw; a
// folder whose count and whose sub-folders' counts have not moved since is taken from the
// parent snapshot without being walked or read again. The counter row of a folder removed
// for good goes with it.

const WATCHED = ['parent_id', 'name', 'folder', 'size', 'mtime', 'content_hash', 'owner_id', 'trash_key'];

const changedSql = (prefix: (side: 'old' | 'new', column: string) => string, distinct: string) =>
  WATCHED.map((c) => `${prefix('old', c)} ${distinct} ${prefix('new', c)}`).join(' or ');

export async function up(db: Kysely<any>): Promise<void> {
  await db.schema
    .createTable('tree_changes')
    .addColumn('folder_id', 'text', (c) => c.primaryKey())
    .addColumn('changes', 'bigint', (c) => c.notNull())
    .execute();
  const columns = WATCHED.join(', ');
  if (isSqlite(db)) {
    const bump = (side: 'old' | 'new') =>
      `insert into tree_changes (folder_id, changes) values (${side}.parent_id, 1) on conflict (folder_id) do update set changes = changes + 1;`;
    await sql.raw(`create trigger tree_changes_insert after insert on nodes begin ${bump('new')} end`).execute(db);
    await sql
      .raw(`create trigger tree_changes_delete after delete on nodes begin ${bump('old')} delete from tree_changes where folder_id = old.id; end`)
      .execute(db);
    await sql
      .raw(
        `create trigger tree_changes_update after update of ${columns} on nodes when ${changedSql((side, c) => `${side}.${c}`, 'is not')} begin
          ${bump('old')}
          insert into tree_changes (folder_id, changes) select new.parent_id, 1 where new.parent_id <> old.parent_id
            on conflict (folder_id) do update set changes = changes + 1;
        end`,
      )
      .execute(db);
    return;
  }
  await sql
    .raw(
      `create function tree_changes_note() returns trigger language plpgsql as $$
      begin
        if tg_op = 'INSERT' then
          insert into tree_changes (folder_id, changes) values (new.parent_id, 1)
            on conflict (folder_id) do update set changes = tree_changes.changes + 1;
          return null;
        end if;
        insert into tree_changes (folder_id, changes) values (old.parent_id, 1)
          on conflict (folder_id) do update set changes = tree_changes.changes + 1;
        if tg_op = 'DELETE' then
          delete from tree_changes where folder_id = old.id;
        elsif new.parent_id <> old.parent_id then
          insert into tree_changes (folder_id, changes) values (new.parent_id, 1)
            on conflict (folder_id) do update set changes = tree_changes.changes + 1;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql.raw(`create trigger tree_changes_insert_delete after insert or delete on nodes for each row execute function tree_changes_note()`).execute(db);
  await sql
    .raw(
      `create trigger tree_changes_update after update of ${columns} on nodes for each row
        when (${changedSql((side, c) => `${side}.${c}`, 'is distinct from')}) execute function tree_changes_note()`,
    )
    .execute(db);
}
