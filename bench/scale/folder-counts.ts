// What the bulk loaders run after a load, as migration 20261128_1101_folder_counts does.

/**
 * The folders' live child counts (migration folder_counts), counted again over every node as
 * that migration does; only where the server built has them.
 */
export const FOLDER_COUNTS = `insert into tree_changes (folder_id, changes, live_children, live_folders)
  select parent_id, 0, count(*), sum(case when folder = 1 then 1 else 0 end) from nodes where trash_key = '' group by parent_id
  on conflict (folder_id) do update set live_children = excluded.live_children, live_folders = excluded.live_folders`;
