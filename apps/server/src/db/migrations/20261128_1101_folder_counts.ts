import { type Kysely, sql } from 'kysely';
import { isSqlite } from '../dialect.js';

// Frozen: never edit after it has landed. Runs on SQLite and PostgreSQL alike.
// Folder counts: each folder's number of live children (`trash_key = ''`) and of live
// sub-folders among them, so a listing reads its total from one row instead of counting
// index entries (a 100,000-entry folder cost two ranges of 100,000 entries per call). Kept
// in the rows of `tree_changes` (migration tree_changes): the same triggers on `nodes`, in
// the statement that makes the change, already write exactly that row (the parent's) for
// every change that can move a count (insert, delete, and an update of parent_id, folder or
// trash_key), so the counts cost no extra row, lock or statement. An update adds its effect
// to the old parent (and, for a move, takes the row's part out of the old parent and adds it
// to the new one); a delete takes it out. Counts taken out are floored at 0: a right count
// never goes below it (every row taken out was counted in), but the children of a folder
// deleted for good, whose row went with it, may be deleted after it and write a row for it
// again, which then stays at 0 instead of going negative. The counts start from one grouped
// count of the live nodes, written after the new triggers are in place, in one transaction.

const WATCHED = ['parent_id', 'name', 'folder', 'size', 'mtime', 'content_hash', 'owner_id', 'trash_key'];

const changedSql = (prefix: (side: 'old' | 'new', column: string) => string, distinct: string) =>
  WATCHED.map((c) => `${prefix('old', c)} ${distinct} ${prefix('new', c)}`).join(' or ');

/** 1 when the side's row is a live child of its parent, else 0. */
const live = (side: 'old' | 'new') => `(case when ${side}.trash_key = '' then 1 else 0 end)`;
/** 1 when the side's row is a live sub-folder of its parent, else 0. */
const liveFolder = (side: 'old' | 'new') => `(case when ${side}.trash_key = '' and ${side}.folder = 1 then 1 else 0 end)`;

const BACKFILL = `insert into tree_changes (folder_id, changes, live_children, live_folders)
  select parent_id, 0, count(*), sum(case when folder = 1 then 1 else 0 end) from nodes where trash_key = '' group by parent_id
  on conflict (folder_id) do update set live_children = excluded.live_children, live_folders = excluded.live_folders`;

export async function up(db: Kysely<any>): Promise<void> {
  if (isSqlite(db)) {
    // SQLite migrations run outside a transaction: the triggers are swapped and the counts
    // written in one, so no write of another process falls between them.
    const run = async (trx: Kysely<any>) => {
      for (const name of ['tree_changes_insert', 'tree_changes_delete', 'tree_changes_update']) await sql.raw(`drop trigger ${name}`).execute(trx);
      await sql`alter table tree_changes add column live_children bigint not null default 0`.execute(trx);
      await sql`alter table tree_changes add column live_folders bigint not null default 0`.execute(trx);
      const upsert = (parent: string, children: string, folders: string) =>
        `insert into tree_changes (folder_id, changes, live_children, live_folders) values (${parent}, 1, max(0, ${children}), max(0, ${folders}))
          on conflict (folder_id) do update set changes = changes + 1, live_children = max(0, live_children + ${children}), live_folders = max(0, live_folders + ${folders});`;
      await sql.raw(`create trigger tree_changes_insert after insert on nodes begin ${upsert('new.parent_id', live('new'), liveFolder('new'))} end`).execute(trx);
      await sql
        .raw(
          `create trigger tree_changes_delete after delete on nodes begin
            ${upsert('old.parent_id', `-${live('old')}`, `-${liveFolder('old')}`)}
            delete from tree_changes where folder_id = old.id;
          end`,
        )
        .execute(trx);
      // The old parent gains the row's new part when it stays (same parent), and loses its old part.
      const stays = (expression: string) => `(case when new.parent_id = old.parent_id then ${expression} else 0 end)`;
      await sql
        .raw(
          `create trigger tree_changes_update after update of ${WATCHED.join(', ')} on nodes when ${changedSql((side, c) => `${side}.${c}`, 'is not')} begin
            ${upsert('old.parent_id', `${stays(live('new'))} - ${live('old')}`, `${stays(liveFolder('new'))} - ${liveFolder('old')}`)}
            insert into tree_changes (folder_id, changes, live_children, live_folders) select new.parent_id, 1, ${live('new')}, ${liveFolder('new')} where new.parent_id <> old.parent_id
              on conflict (folder_id) do update set changes = changes + 1, live_children = live_children + excluded.live_children, live_folders = live_folders + excluded.live_folders;
          end`,
        )
        .execute(trx);
      await sql.raw(BACKFILL).execute(trx);
    };
    await (db.isTransaction ? run(db) : db.transaction().execute(run));
    return;
  }
  // PostgreSQL runs a migration in one transaction. Writes to `nodes` wait until it commits,
  // so the grouped count is exact when the new function takes over.
  await sql`lock table nodes in share mode`.execute(db);
  await sql`alter table tree_changes add column live_children bigint not null default 0, add column live_folders bigint not null default 0`.execute(db);
  // The triggers (tree_changes_insert_delete, tree_changes_update) call this function by name: replacing it is enough.
  await sql
    .raw(
      `create or replace function tree_changes_note() returns trigger language plpgsql as $$
      declare
        children bigint;
        folders bigint;
      begin
        if tg_op = 'INSERT' then
          insert into tree_changes (folder_id, changes, live_children, live_folders) values (new.parent_id, 1, ${live('new')}, ${liveFolder('new')})
            on conflict (folder_id) do update set changes = tree_changes.changes + 1,
              live_children = tree_changes.live_children + excluded.live_children, live_folders = tree_changes.live_folders + excluded.live_folders;
          return null;
        end if;
        children := -${live('old')};
        folders := -${liveFolder('old')};
        if tg_op = 'UPDATE' and new.parent_id = old.parent_id then
          children := children + ${live('new')};
          folders := folders + ${liveFolder('new')};
        end if;
        insert into tree_changes (folder_id, changes, live_children, live_folders) values (old.parent_id, 1, greatest(children, 0), greatest(folders, 0))
          on conflict (folder_id) do update set changes = tree_changes.changes + 1,
            live_children = greatest(tree_changes.live_children + children, 0), live_folders = greatest(tree_changes.live_folders + folders, 0);
        if tg_op = 'DELETE' then
          delete from tree_changes where folder_id = old.id;
        elsif new.parent_id <> old.parent_id then
          insert into tree_changes (folder_id, changes, live_children, live_folders) values (new.parent_id, 1, ${live('new')}, ${liveFolder('new')})
            on conflict (folder_id) do update set changes = tree_changes.changes + 1,
              live_children = tree_changes.live_children + excluded.live_children, live_folders = tree_changes.live_folders + excluded.live_folders;
        end if;
        return null;
      end $$`,
    )
    .execute(db);
  await sql.raw(BACKFILL).execute(db);
}
