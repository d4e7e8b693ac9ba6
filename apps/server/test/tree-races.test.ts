import { type ApiCall, apiCalls, type CallInput } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { up as breakCycles } from '../src/db/migrations/20261127_0202_break_cycles.js';
import type { FileTreeService } from '../src/modules/files/file-tree.js';
import { addFile, namesIn, usageOf } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { migratedTestDb, nodeRow } from './node-rows.js';

// The tree stays a tree when changes come all at once: every move re-checks, under the
// lock of the roots it touches, that the target is not inside what moves, and every name
// stays unique among its live siblings.

const PAIRS = 50;
const SAME_NAME = 20;

describeEachDialect('the tree under concurrent changes on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    for (const name of ['Race', 'Other']) {
      await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  /** One of racing calls, its input typed by the contract; raw answer on purpose: it may win or be refused, and the test counts both. */
  const attempt = <C extends ApiCall>(contract: C, body: CallInput<C>['body']) => server.request(contract.method, contract.path, { token: master.token, body });
  const mkdir = (path: string, name: string) => call(server, apiCalls.folder_create, { token: master.token, body: { name, path } });
  const move = (path: string, name: string, newPath: string) => attempt(apiCalls.file_move, { path, name, newPath });

  /** Every node under the root at `rootPath`, with whether its way up reaches a root with nothing trashed on it. */
  async function reachability(rootPath: string) {
    const root = await server.app.fileTree.resolve(rootPath);
    const rows = await server.app.db.selectFrom('nodes').select(['id', 'name']).where('root_id', '=', root!.id).execute();
    const paths = await (server.app.fileTree as FileTreeService).livePaths(rows.map((r) => r.id));
    return { total: rows.length, unreachable: rows.filter((r) => !paths.has(r.id)).map((r) => r.name) };
  }

  it('50 pairs of folders moved into each other at once: one move of each pair wins, nothing vanishes', async () => {
    for (let i = 0; i < PAIRS; i += 1) {
      await mkdir('/Race', `a${i}`);
      await mkdir('/Race', `b${i}`);
      await addFile(server, `/Race/a${i}`, 'in-a.txt', 10, master.user._id, `a${i}`);
      await addFile(server, `/Race/b${i}`, 'in-b.txt', 10, master.user._id, `b${i}`);
    }
    const usage = await usageOf(server, master.token, '/Race');
    const answers = await Promise.all(
      Array.from({ length: PAIRS }, (_, i) => Promise.all([move('/Race', `a${i}`, `/Race/b${i}`), move('/Race', `b${i}`, `/Race/a${i}`)])),
    );
    for (const [i, pair] of answers.entries()) {
      const outcome = pair.map((res) => (res.status === 200 ? 200 : `${res.status} ${res.body?.message}`));
      // The loser either saw the winner's move in its transaction (400) or found its target gone (404).
      expect({ i, winners: outcome.filter((o) => o === 200).length }).toEqual({ i, winners: 1 });
      for (const o of outcome) expect(['200', '400 move_into_itself_warning', '404 folder_not_found']).toContain(String(o));
    }
    // Every folder and file is still reachable from the root: no cycle, nothing stranded.
    expect(await reachability('/Race')).toEqual({ total: 4 * PAIRS + 1, unreachable: [] });
    expect((await namesIn(server, master.token, '/Race')).length).toBe(PAIRS);
    expect(await usageOf(server, master.token, '/Race')).toBe(usage);
  });

  it('moves into each other across two roots at once leave no cycle and keep usage where the bytes are', async () => {
    for (let i = 0; i < 10; i += 1) {
      await mkdir('/Race', `x${i}`);
      await mkdir('/Other', `y${i}`);
      await addFile(server, `/Race/x${i}`, 'x.bin', 7, master.user._id, `x${i}`);
      await addFile(server, `/Other/y${i}`, 'y.bin', 5, master.user._id, `y${i}`);
    }
    const before = (await usageOf(server, master.token, '/Race')) + (await usageOf(server, master.token, '/Other'));
    const answers = await Promise.all(
      Array.from({ length: 10 }, (_, i) => Promise.all([move('/Race', `x${i}`, `/Other/y${i}`), move('/Other', `y${i}`, `/Race/x${i}`)])),
    );
    for (const pair of answers) {
      expect(pair.filter((res) => res.status === 200).length).toBe(1);
      for (const res of pair) expect(res.status).toBeLessThan(500);
    }
    const race = await reachability('/Race');
    const other = await reachability('/Other');
    expect([...race.unreachable, ...other.unreachable]).toEqual([]);
    expect((await usageOf(server, master.token, '/Race')) + (await usageOf(server, master.token, '/Other'))).toBe(before);
  });

  it('20 creates, renames and moves to one name in one folder at once: exactly one of each wins', async () => {
    await mkdir('/Race', 'names');
    await mkdir('/Race', 'sources');
    for (let i = 0; i < SAME_NAME; i += 1) {
      await addFile(server, '/Race/names', `r${i}.txt`, 1, master.user._id, `r${i}`);
      await mkdir('/Race/sources', `s${i}`);
      await addFile(server, `/Race/sources/s${i}`, 'same.txt', 1, master.user._id, `s${i}`);
    }
    const creates = await Promise.all(Array.from({ length: SAME_NAME }, () => attempt(apiCalls.folder_create, { name: 'made', path: '/Race/names' })));
    const renames = await Promise.all(
      Array.from({ length: SAME_NAME }, (_, i) => attempt(apiCalls.file_rename, { path: '/Race/names', name: `r${i}.txt`, newName: 'renamed.txt' })),
    );
    const moves = await Promise.all(Array.from({ length: SAME_NAME }, (_, i) => move(`/Race/sources/s${i}`, 'same.txt', '/Race/names')));
    for (const answers of [creates, renames, moves]) {
      expect(answers.filter((res) => res.status === 200).length).toBe(1);
      const losers = answers.filter((res) => res.status !== 200).map((res) => `${res.status} ${res.body?.message}`);
      expect(losers).toEqual(Array.from({ length: SAME_NAME - 1 }, () => '409 file_exists_warning'));
    }
    const names = await namesIn(server, master.token, '/Race/names');
    expect(names.filter((n) => ['made', 'renamed.txt', 'same.txt'].includes(n)).sort()).toEqual(['made', 'renamed.txt', 'same.txt']);
    expect(names.length).toBe(SAME_NAME + 2);
  });

  it('20 copies of one name into one folder at once with "keep both": every one lands under its own name', async () => {
    await mkdir('/Race', 'kept');
    await addFile(server, '/Race', 'twin.txt', 2, master.user._id, 'twin');
    const copies = await Promise.all(
      Array.from({ length: SAME_NAME }, () =>
        call(server, apiCalls.file_copy, { token: master.token, body: { path: '/Race', name: 'twin.txt', newPath: '/Race/kept', onConflict: 'keep-both' } }),
      ),
    );
    expect(copies.map((res) => res.status)).toEqual(Array.from({ length: SAME_NAME }, () => 200));
    const names = await namesIn(server, master.token, '/Race/kept');
    expect(new Set(names).size).toBe(SAME_NAME);
    expect(names).toContain('twin.txt');
  });
});

describeEachDialect('putting back cycles an earlier version left, on $dialect', (dialect) => {
  it('the first folder of each cycle goes to the top of its root, under a free name; orphans stay', async () => {
    const db = await migratedTestDb(dialect);
    const folder = { folder: 1 } as const;
    // c1 and c2 moved into each other; a live `a` already sits at the top of the root.
    await db
      .insertInto('nodes')
      .values([
        nodeRow('r', '', 'Root', folder),
        nodeRow('x1', 'r', 'a', folder),
        nodeRow('c1', 'c2', 'a', folder),
        nodeRow('c2', 'c1', 'b', folder),
        nodeRow('f1', 'c2', 'in-b.txt', { size: 10 }),
        nodeRow('o1', 'gone', 'orphan', folder),
      ])
      .execute();
    await breakCycles(db);
    const rows = await db.selectFrom('nodes').select(['id', 'parent_id', 'name']).orderBy('id').execute();
    expect(rows).toEqual([
      { id: 'c1', parent_id: 'r', name: 'a (1)' },
      { id: 'c2', parent_id: 'c1', name: 'b' },
      { id: 'f1', parent_id: 'c2', name: 'in-b.txt' },
      { id: 'o1', parent_id: 'gone', name: 'orphan' },
      { id: 'r', parent_id: '', name: 'Root' },
      { id: 'x1', parent_id: 'r', name: 'a' },
    ]);
  });
});
