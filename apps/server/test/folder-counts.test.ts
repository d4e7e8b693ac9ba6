import { type ApiCall, apiCalls, type CallInput } from '@bogwan/contracts';
import { Migrator, sql } from 'kysely';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { migrateToLatest } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import type { Db } from '../src/db/index.js';
import { addFile } from './files-helpers.js';
import { call, describeEachDialect, openTestDb, setupMaster, startServer, type TestServer } from './harness.js';
import { nodeRow } from './node-rows.js';
import { createPlan, repoDir, restoreItems, runPlan } from './snapshots-helpers.js';
import { bytesOf, upload } from './transfer-helpers.js';

// A folder's live children and live sub-folders are counted by triggers on `nodes`
// (migration folder_counts), and the listing's total is read from those counts. Whatever
// writes the tree, the counts must equal a count of the rows themselves: for every folder,
// after every kind of change, under concurrent changes, and right after the migration.

type Counts = Record<string, [children: number, folders: number]>;

/** The counts the triggers keep, folders with none left out (a row of zeros is the same as no row). */
async function keptCounts(db: Db): Promise<Counts> {
  const rows = await db.selectFrom('tree_changes').select(['folder_id', 'live_children', 'live_folders']).execute();
  const out: Counts = {};
  for (const row of rows) {
    const counts: [number, number] = [Number(row.live_children), Number(row.live_folders)];
    if (counts[0] !== 0 || counts[1] !== 0) out[row.folder_id] = counts;
  }
  return out;
}

/** The same counts, straight from the rows of `nodes`. */
async function bruteCounts(db: Db): Promise<Counts> {
  const { rows } = await sql<{ parent_id: string; children: number | string; folders: number | string }>`
    select parent_id, count(*) as children, sum(case when folder = 1 then 1 else 0 end) as folders
    from nodes where trash_key = '' group by parent_id`.execute(db);
  return Object.fromEntries(rows.map((row) => [row.parent_id, [Number(row.children), Number(row.folders)]]));
}

async function expectExactCounts(db: Db, step: string): Promise<void> {
  expect(await keptCounts(db), step).toEqual(await bruteCounts(db));
}

describeEachDialect('folder counts through the API on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  const db = () => server.app.db;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    for (const name of ['Team', 'Other', 'Burst', 'Snap']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const mkdir = (path: string, name: string) => call(server, apiCalls.folder_create, { token: master.token, body: { name, path } });
  const move = (path: string, name: string, newPath: string) => call(server, apiCalls.file_move, { token: master.token, body: { path, name, newPath } });
  const trash = (paths: string[]) => call(server, apiCalls.file_trash, { token: master.token, body: { paths } });
  const put = async (path: string, name: string, size: number, onConflict = 'fail') =>
    expect((await upload(server, master.token, path, name, bytesOf(size, `${path}/${name}/${size}`), { onConflict })).status).toBe(200);
  /** A raw call that may win or be refused. */
  const attempt = <C extends ApiCall>(contract: C, body: CallInput<C>['body']) => server.request(contract.method, contract.path, { token: master.token, body });

  /** Every live folder under `path` is listed with the total, and the folders-first split, of its rows. */
  async function expectListingsMatch(path: string): Promise<void> {
    const listing = await call(server, apiCalls.file_list, { token: master.token, query: { path, limit: 1000 } });
    const folder = await server.app.fileTree.resolve(path);
    const [children, folders] = (await bruteCounts(db()))[folder!.id] ?? [0, 0];
    expect({ path, total: listing.body.total, items: listing.body.items.length }).toEqual({ path, total: children, items: children });
    const flags = listing.body.items.map((item) => item.folder);
    expect({ path, flags }).toEqual({ path, flags: [...Array<boolean>(folders).fill(true), ...Array<boolean>(children - folders).fill(false)] });
    // A page from the middle of the files is the right one: the split decides where files start.
    if (children > 1) {
      const page = await call(server, apiCalls.file_list, { token: master.token, query: { path, skip: folders, limit: 1 } });
      expect({ path, first: page.body.items[0]?.folder ?? null }).toEqual({ path, first: children > folders ? false : null });
    }
    for (const item of listing.body.items) if (item.folder) await expectListingsMatch(`${path}/${item.name}`);
  }

  it('match the rows after creates, uploads, copies, moves, renames, trash, restore and purge', async () => {
    await expectExactCounts(db(), 'start');
    await mkdir('/Team', 'a');
    await mkdir('/Team', 'b');
    await mkdir('/Team/a', 'sub');
    await mkdir('/Team/a/sub', 'deep');
    await put('/Team/a', 'one.txt', 10);
    await put('/Team/a', 'two.txt', 20);
    await put('/Team/a/sub', 'three.txt', 30);
    await put('/Team/a/sub/deep', 'four.txt', 40);
    await addFile(server, '/Team/b', 'five.txt', 50, master.user._id);
    // The same name again: replaced (a new version, not a new child), then kept beside it.
    await put('/Team/a', 'one.txt', 11, 'replace');
    await put('/Team/a', 'two.txt', 21, 'keep-both');
    await expectExactCounts(db(), 'created');
    await expectListingsMatch('/Team');

    expect((await call(server, apiCalls.file_copy, { token: master.token, body: { path: '/Team', name: 'a', newPath: '/Other' } })).status).toBe(200);
    await expectExactCounts(db(), 'copied');
    expect((await move('/Team/a', 'one.txt', '/Team/b')).status).toBe(200);
    expect((await move('/Team/a', 'sub', '/Team/b')).status).toBe(200);
    expect((await move('/Team', 'b', '/Other')).status).toBe(200);
    await expectExactCounts(db(), 'moved');
    await call(server, apiCalls.file_rename, { token: master.token, body: { path: '/Other/b', name: 'sub', newName: 'renamed' } });
    await call(server, apiCalls.file_rename, { token: master.token, body: { path: '/Other/b', name: 'five.txt', newName: 'six.txt' } });
    await expectExactCounts(db(), 'renamed');
    await expectListingsMatch('/Team');
    await expectListingsMatch('/Other');

    // Trash a file, a folder with children, and something inside a folder trashed next.
    const file = await trash(['/Other/b/six.txt']);
    const inner = await trash(['/Other/a/sub/three.txt']);
    const folder = await trash(['/Other/a']);
    await expectExactCounts(db(), 'trashed');
    await expectListingsMatch('/Other');
    expect((await call(server, apiCalls.trash_restore, { token: master.token, body: { ids: [...file.body.ids, ...folder.body.ids] } })).status).toBe(200);
    expect((await call(server, apiCalls.trash_restore, { token: master.token, body: { ids: inner.body.ids } })).status).toBe(200);
    await expectExactCounts(db(), 'restored');
    await expectListingsMatch('/Other');

    // Purge: a file, then a folder with children (deleted for good, its rows and its counts go).
    const purgeFile = await trash(['/Other/b/one.txt']);
    expect((await call(server, apiCalls.trash_delete, { token: master.token, params: { id: purgeFile.body.ids[0]! } })).status).toBe(200);
    const purgeFolder = await trash(['/Other/b/renamed']);
    const purgedId = purgeFolder.body.ids[0]!;
    expect((await call(server, apiCalls.trash_delete, { token: master.token, params: { id: purgedId } })).status).toBe(200);
    await expectExactCounts(db(), 'purged');
    await trash(['/Other/a/two.txt']);
    await trash(['/Other/a']);
    expect((await call(server, apiCalls.trash_empty, { token: master.token })).status).toBe(200);
    await expectExactCounts(db(), 'emptied');
    await expectListingsMatch('/Team');
    await expectListingsMatch('/Other');
  });

  it('match the rows after a snapshot is restored into a folder', async () => {
    await mkdir('/Snap', 'kept');
    await mkdir('/Snap/kept', 'inside');
    await put('/Snap/kept', 'k1.txt', 5);
    await put('/Snap/kept/inside', 'k2.txt', 6);
    const roots = (await call(server, apiCalls.root_list, { token: master.token })).body;
    const snap = roots.find((r) => r.name === 'Snap')!;
    const plan = await createPlan(server, master.token, repoDir(), { target: { all: false, roots: [snap._id] } });
    const run = await runPlan(server, master.token, plan._id);
    expect(run).toMatchObject({ status: 'completed' });
    await mkdir('/Other', 'restored');
    const restored = await restoreItems(server, master.token, { runId: run._id, items: ['Snap/kept'], target: { kind: 'folder', path: '/Other/restored' } });
    expect(restored).toMatchObject({ status: 'completed', failed: 0 });
    await expectExactCounts(db(), 'snapshot restored');
    await expectListingsMatch('/Other');
  });

  it('match the rows after a burst of creates, moves and trashes into one folder', async () => {
    await mkdir('/Burst', 'target');
    await mkdir('/Burst', 'source');
    for (let i = 0; i < 12; i += 1) {
      await addFile(server, '/Burst/source', `m${i}.txt`, 1, master.user._id, `m${i}`);
      await addFile(server, '/Burst/target', `t${i}.txt`, 1, master.user._id, `t${i}`);
      await mkdir('/Burst/source', `d${i}`);
    }
    await expectExactCounts(db(), 'before the burst');
    const answers = await Promise.all([
      ...Array.from({ length: 12 }, (_, i) => attempt(apiCalls.folder_create, { name: `new${i}`, path: '/Burst/target' })),
      // Four creates of one name: one wins.
      ...Array.from({ length: 4 }, () => attempt(apiCalls.folder_create, { name: 'same', path: '/Burst/target' })),
      ...Array.from({ length: 12 }, (_, i) => attempt(apiCalls.file_move, { path: '/Burst/source', name: `m${i}.txt`, newPath: '/Burst/target' })),
      ...Array.from({ length: 12 }, (_, i) => attempt(apiCalls.file_move, { path: '/Burst/source', name: `d${i}`, newPath: '/Burst/target' })),
      ...Array.from({ length: 12 }, (_, i) => attempt(apiCalls.file_trash, { paths: [`/Burst/target/t${i}.txt`] })),
      ...Array.from({ length: 6 }, (_, i) => attempt(apiCalls.file_rename, { path: '/Burst/target', name: `t${i}.txt`, newName: `r${i}.txt` })),
    ]);
    for (const res of answers) expect(res.status).toBeLessThan(500);
    expect(answers.filter((res) => res.status === 200).length).toBeGreaterThanOrEqual(12 + 1 + 12 + 12);
    await expectExactCounts(db(), 'after the burst');
    await expectListingsMatch('/Burst');
    const target = (await bruteCounts(db()))[(await server.app.fileTree.resolve('/Burst/target'))!.id]!;
    // 12 new folders, 1 'same', 12 folders and 12 files moved in, 12 files there before, each trashed or renamed (trash wins or the file stays).
    expect(target[1]).toBe(12 + 1 + 12);
    expect(target[0]).toBeGreaterThanOrEqual(12 + 1 + 12 + 12);
  });
});

describeEachDialect('the folder counts migration on $dialect', (dialect) => {
  const cleanups: (() => Promise<void>)[] = [];
  afterEach(async () => {
    for (const c of cleanups.splice(0).reverse()) await c();
  });

  it('counts the rows already there, keeps the change counts, and the triggers keep counting after it', async () => {
    const { db, close } = await openTestDb(dialect);
    cleanups.push(close);
    const names = Object.keys(migrations).sort();
    const before = names[names.indexOf('20261128_1101_folder_counts') - 1]!;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();

    // A root r with folders f1 (3 live files, 1 trashed, 2 live folders, 1 trashed folder) and f2 (empty).
    const rows = [
      nodeRow('r', '', 'root', { folder: 1 }),
      nodeRow('f1', 'r', 'f1', { folder: 1 }),
      nodeRow('f2', 'r', 'f2', { folder: 1 }),
      nodeRow('x1', 'f1', 'x1.txt'),
      nodeRow('x2', 'f1', 'x2.txt'),
      nodeRow('x3', 'f1', 'x3.txt'),
      nodeRow('xt', 'f1', 'x1.txt', { trashKey: 'xt' }),
      nodeRow('s1', 'f1', 's1', { folder: 1 }),
      nodeRow('s2', 'f1', 's2', { folder: 1 }),
      nodeRow('st', 'f1', 'st', { folder: 1, trashKey: 'st' }),
      nodeRow('in-st', 'st', 'under trash.txt'),
    ];
    await db.insertInto('nodes').values(rows).execute();
    // A change the old triggers counted: its change count must survive the migration.
    await db.updateTable('nodes').set({ name: 'x3 renamed.txt' }).where('id', '=', 'x3').execute();
    const { rows: changesBefore } = await sql<{ folder_id: string; changes: number | string }>`select folder_id, changes from tree_changes`.execute(db);

    await migrateToLatest(db);
    const { rows: changesAfter } = await sql<{ folder_id: string; changes: number | string }>`select folder_id, changes from tree_changes`.execute(db);
    const asMap = (list: { folder_id: string; changes: number | string }[]) => Object.fromEntries(list.map((r) => [r.folder_id, Number(r.changes)]));
    // Folders with no change counted get a row with 0 changes, which means the same as none.
    expect(Object.fromEntries(Object.entries(asMap(changesAfter)).filter(([, n]) => n !== 0))).toEqual(asMap(changesBefore));
    expect(await keptCounts(db)).toEqual({ '': [1, 1], r: [2, 2], f1: [5, 2], st: [1, 0] });
    await expectExactCounts(db, 'migrated');

    // Straight SQL after the migration: every shape of change the triggers must follow.
    await db
      .insertInto('nodes')
      .values(nodeRow('x4', 'f2', 'x4.txt'))
      .execute();
    await db.updateTable('nodes').set({ parent_id: 'f2' }).where('id', '=', 'x1').execute(); // move a live file
    await db.updateTable('nodes').set({ parent_id: 'f2' }).where('id', '=', 'xt').execute(); // move a trashed file
    await db.updateTable('nodes').set({ trash_key: 's1' }).where('id', '=', 's1').execute(); // trash a folder
    await db.updateTable('nodes').set({ trash_key: '' }).where('id', '=', 'st').execute(); // restore a folder
    await db.updateTable('nodes').set({ folder: 1 }).where('id', '=', 'x2').execute(); // a file becomes a folder
    await db.updateTable('nodes').set({ parent_id: 'f2', trash_key: 'x3' }).where('id', '=', 'x3').execute(); // moved and trashed at once
    await db.updateTable('nodes').set({ parent_id: 'f1', trash_key: '' }).where('id', '=', 'x3').execute(); // moved back and restored at once
    await expectExactCounts(db, 'after the updates');
    // A folder deleted before its children, in one statement, and a file deleted on its own.
    await db.deleteFrom('nodes').where('id', 'in', ['st', 'in-st']).execute();
    await db.deleteFrom('nodes').where('id', '=', 'x4').execute();
    await expectExactCounts(db, 'after the deletes');
    // A change that rolls back leaves the counts as they were.
    await db
      .transaction()
      .execute(async (trx) => {
        await trx
          .insertInto('nodes')
          .values(nodeRow('gone', 'f2', 'gone.txt'))
          .execute();
        throw new Error('roll back');
      })
      .catch(() => undefined);
    await expectExactCounts(db, 'after a rollback');
    expect((await keptCounts(db)).f2).toEqual([1, 0]);
  });
});
