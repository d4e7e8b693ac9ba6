// The plans of the queries behind the figures that grow with the installation, on a loaded
// database: SQLite's EXPLAIN QUERY PLAN, PostgreSQL's EXPLAIN (ANALYZE, BUFFERS). Called by
// run.ts with `--explain` before the database is dropped.
import type { DirectDb } from './baselines.js';

/** The queries as the repositories write them (nodes.repo.ts, dashboard.repo.ts), with the ids of one installation. */
function queries(ids: { root: string; big: string; along: string[] }): Record<string, { sql: string; params: unknown[] }> {
  return {
    trashPage: { sql: `select * from nodes where trash_key <> '' order by trashed_at desc, id desc limit 100 offset 0`, params: [] },
    trashCount: { sql: `select count(*) from nodes where trash_key <> ''`, params: [] },
    childCount: { sql: `select count(*) from nodes where parent_id = ? and trash_key = ''`, params: [ids.big] },
    childFolderCount: { sql: `select count(*) from nodes where parent_id = ? and trash_key = '' and folder = ?`, params: [ids.big, 1] },
    treeFolders: {
      sql: `select * from nodes where parent_id in (${ids.along.map(() => '?').join(', ')}) and folder = ? and trash_key = '' order by name`,
      params: [...ids.along, 1],
    },
    roots: { sql: `select name, usage_bytes from nodes where parent_id = '' order by name`, params: [] },
  };
}

/** Each query's plan as text lines, and (PostgreSQL) its execution time. */
export async function explainAll(
  dialect: 'sqlite' | 'postgres',
  db: DirectDb,
  ids: { root: string; big: string; along: string[] },
): Promise<Record<string, string[]>> {
  const out: Record<string, string[]> = {};
  for (const [name, { sql, params }] of Object.entries(queries(ids))) {
    const prefix = dialect === 'sqlite' ? 'explain query plan ' : 'explain (analyze, buffers) ';
    const rows = (await db.run(prefix + sql, params)) as Record<string, unknown>[];
    out[name] = rows.map((row) => String(dialect === 'sqlite' ? row.detail : row['QUERY PLAN']));
  }
  return out;
}
