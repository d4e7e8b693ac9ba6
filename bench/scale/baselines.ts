// The same questions asked straight of the database, in the same run: the page of a listing,
// the folders of the tree and the trash page as plain queries (no HTTP, no sign-in check, no
// presenter), search as a substring scan with no index (as bench/search), usage as a sum over
// the files instead of the root's counters; and restic over the same blob directory.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import Database from 'better-sqlite3';
import pg from 'pg';
import { msSince } from './server.js';

/** One read-only connection that runs a query written with `?` placeholders. */
export interface DirectDb {
  run(query: string, params: unknown[]): Promise<unknown>;
  close(): Promise<void>;
}

export async function openDirect(dialect: 'sqlite' | 'postgres', target: string): Promise<DirectDb> {
  if (dialect === 'sqlite') {
    const db = new Database(path.join(target, 'bogwan.sqlite'), { readonly: true });
    return {
      run: async (query, params) => db.prepare(query).all(...params),
      close: async () => db.close(),
    };
  }
  const client = new pg.Client({ connectionString: target });
  await client.connect();
  return {
    run: async (query, params) => {
      let n = 0;
      return (
        await client.query(
          query.replace(/\?/g, () => `$${++n}`),
          params,
        )
      ).rows;
    },
    close: () => client.end(),
  };
}

/** The direct queries, one per figure, for a root and the ids the product calls resolve. */
export function directQueries(dialect: 'sqlite' | 'postgres', ids: { root: string; big: string; along: string[] }) {
  const pos = dialect === 'sqlite' ? 'instr' : 'strpos';
  const page = (skip: number) => (db: DirectDb) =>
    db.run(
      `select id, name, folder, size, mtime, lock, owner_id from nodes where parent_id = ? and trash_key = '' order by folder desc, name, id limit 100 offset ?`,
      [ids.big, skip],
    );
  return {
    listFirst: page(0),
    listDeep: (skip: number) => page(skip),
    tree: (db: DirectDb) =>
      db.run(`select * from nodes where parent_id in (${ids.along.map(() => '?').join(', ')}) and folder = 1 and trash_key = '' order by name`, ids.along),
    search: (keyword: string) => async (db: DirectDb) => {
      await db.run(`select id from nodes where ${pos}(lower(name), lower(?)) > 0 and trash_key = '' limit 20`, [keyword]);
      await db.run(`select hash from search_texts where ${pos}(lower(body), lower(?)) > 0 limit 20`, [keyword]);
    },
    usage: (db: DirectDb) => db.run(`select sum(size) as bytes from nodes where root_id = ? and folder = 0`, [ids.root]),
    trash: async (db: DirectDb) => {
      await db.run(`select * from nodes where trash_key <> '' order by trashed_at desc, id desc limit 100`, []);
      await db.run(`select count(*) as n from nodes where trash_key <> ''`, []);
    },
  };
}

/** True when restic is on the PATH. */
export function hasRestic(): boolean {
  return spawnSync('restic', ['version']).status === 0;
}

/** restic over a directory or the files listed in a file: a first backup, then one with nothing changed; seconds of each. */
export function resticBackups(target: { dir: string } | { list: string }, repository: string): { firstSeconds: number; secondSeconds: number } {
  const env = { ...process.env, RESTIC_PASSWORD: 'bench-password', RESTIC_REPOSITORY: repository };
  fs.mkdirSync(repository, { recursive: true });
  const init = spawnSync('restic', ['init'], { env, encoding: 'utf8' });
  if (init.status !== 0) throw new Error(`restic init: ${init.stderr}`);
  const backup = () => {
    const t = process.hrtime.bigint();
    const run = spawnSync('restic', ['backup', '--quiet', ...('dir' in target ? [target.dir] : ['--files-from-verbatim', target.list])], {
      env,
      encoding: 'utf8',
      maxBuffer: 64 * 1024 * 1024,
    });
    if (run.status !== 0) throw new Error(`restic backup: ${run.stderr}`);
    return msSince(t) / 1000;
  };
  const firstSeconds = backup();
  const secondSeconds = backup();
  return { firstSeconds, secondSeconds };
}
