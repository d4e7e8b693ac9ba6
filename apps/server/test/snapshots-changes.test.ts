// An incremental snapshot takes the folders the database says have not changed from its
// parent without walking them. Every kind of change to the tree between two runs must
// still show in the second run: restored, the snapshot holds exactly the live tree (names,
// folders, bytes), and its catalog lists the same names, sizes and owners. A change the
// counters do not see is not picked up: that is how the test knows the parent's folders
// are really taken over.
import { apiCalls } from '@bogwan/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createFolder, createPlan, createRoot, repoDir, restoreItems, runPlan } from './snapshots-helpers.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

describeEachDialect('snapshots after every kind of change on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;
  let ownerToken: string;
  let planId: string;
  let checks = 0;

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    ownerToken = (await signInAs(server, 'owner@example.com', 'ADMIN')).token;
    await createRoot(server, token, 'Team');
    await createRoot(server, token, 'Checks');
    for (const [parent, name] of [
      ['/Team', 'a'],
      ['/Team', 'b'],
      ['/Team', 'c'],
      ['/Team/a', 'sub'],
      ['/Team/b', 'sub'],
      ['/Team/c', 'deep'],
      ['/Team/c/deep', 'deeper'],
    ]) {
      await createFolder(server, token, parent!, name!);
    }
    const files: [string, string, number][] = [
      ['/Team', 'top.txt', 300],
      ['/Team/a', 'a1.txt', 1000],
      ['/Team/a/sub', 'a2.txt', 2000],
      ['/Team/b', 'b1.txt', 1500],
      ['/Team/b/sub', 'b2.txt', 70_000],
      ['/Team/c', 'c1.txt', 500],
      ['/Team/c/deep/deeper', 'c2.txt', 800],
    ];
    for (const [folder, name, size] of files) expect((await upload(server, ownerToken, folder, name, bytesOf(size, `${folder}/${name}`))).status).toBe(200);
    const team = (await call(server, apiCalls.root_list, { token })).body.find((r) => r.name === 'Team')!;
    planId = (await createPlan(server, token, repoDir(), { target: { all: false, roots: [team._id] } }))._id;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Every path under `path` (relative to it): 'dir' for a folder, the SHA-256 of a file. */
  const treeAt = async (path: string): Promise<Record<string, string>> => {
    const out: Record<string, string> = {};
    const visit = async (folder: string, prefix: string): Promise<void> => {
      const listing = await call(server, apiCalls.file_list, { token, query: { path: folder, limit: 1000 } });
      for (const item of listing.body.items) {
        const rel = prefix ? `${prefix}/${item.name}` : item.name;
        if (item.folder) {
          out[rel] = 'dir';
          await visit(`${folder}/${item.name}`, rel);
          continue;
        }
        const res = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${folder}/${item.name}`)}`);
        expect(res.status, rel).toBe(200);
        out[rel] = sha256(res.bytes);
      }
    };
    await visit(path, '');
    return out;
  };

  /** What a run's catalog lists under Team: path → [folder, size, owner email]. */
  const catalogOf = async (runId: string): Promise<Record<string, [boolean, number, string | null]>> => {
    const out: Record<string, [boolean, number, string | null]> = {};
    const visit = async (path: string): Promise<void> => {
      const res = await call(server, apiCalls.snapshot_items, { token, params: { id: runId }, query: { path } });
      for (const item of res.body.items) {
        out[item.path] = [item.folder, item.folder ? 0 : item.size, item.owner];
        if (item.folder) await visit(item.path);
      }
    };
    await visit('Team');
    return out;
  };

  /** The live Team as the catalog would list it. */
  const liveCatalog = async (): Promise<Record<string, [boolean, number, string | null]>> => {
    const out: Record<string, [boolean, number, string | null]> = {};
    const emails = new Map((await server.app.db.selectFrom('users').select(['id', 'email']).execute()).map((u) => [u.id, u.email]));
    const visit = async (folder: string, prefix: string): Promise<void> => {
      const listing = await call(server, apiCalls.file_list, { token, query: { path: folder, limit: 1000 } });
      for (const item of listing.body.items) {
        const rel = `${prefix}/${item.name}`;
        out[rel] = [item.folder, item.folder ? 0 : item.size, emails.get(item.owner ?? '') ?? null];
        if (item.folder) await visit(`${folder}/${item.name}`, rel);
      }
    };
    await visit('/Team', 'Team');
    return out;
  };

  /** Takes a snapshot, restores its Team into Checks, and answers the restored tree beside the live one. */
  const snapshotAgainstLive = async () => {
    const run = await runPlan(server, token, planId);
    expect(run, 'run').toMatchObject({ status: 'completed' });
    const into = `c${++checks}`;
    await createFolder(server, token, '/Checks', into);
    const restored = await restoreItems(server, token, { runId: run._id, items: ['Team'], target: { kind: 'folder', path: `/Checks/${into}` } });
    expect(restored, 'restore').toMatchObject({ status: 'completed', failed: 0 });
    return {
      run,
      restored: await treeAt(`/Checks/${into}/Team`),
      live: await treeAt('/Team'),
      catalog: await catalogOf(run._id),
      liveCatalog: await liveCatalog(),
    };
  };

  const expectSnapshotOfLive = async (change: string) => {
    const seen = await snapshotAgainstLive();
    expect(seen.restored, change).toEqual(seen.live);
    expect(seen.catalog, change).toEqual(seen.liveCatalog);
    return seen.run;
  };

  const trashIdOf = async (name: string): Promise<string> => {
    const list = await call(server, apiCalls.trash_list, { token, query: { limit: 100 } });
    return list.body.items.find((i) => i.name === name)!._id;
  };

  it('an unchanged tree restores byte-identical, twice over', async () => {
    const first = await expectSnapshotOfLive('first run');
    const second = await expectSnapshotOfLive('nothing changed');
    expect(second.snapshotId).not.toBe(first.snapshotId);
    expect(second).toMatchObject({ files: first.files, size: first.size });
  });

  it.each([
    ['a new file deep down', () => upload(server, token, '/Team/c/deep/deeper', 'new.txt', bytesOf(1234, 'new'))],
    ['an upload over an existing file', () => upload(server, token, '/Team/a/sub', 'a2.txt', bytesOf(2100, 'replaced'), { onConflict: 'replace' })],
    ['a file renamed', () => call(server, apiCalls.file_rename, { token, body: { path: '/Team/b', name: 'b1.txt', newName: 'b1-renamed.txt' } })],
    ['a folder renamed', () => call(server, apiCalls.file_rename, { token, body: { path: '/Team/c', name: 'deep', newName: 'deep2' } })],
    ['a file moved between folders', () => call(server, apiCalls.file_move, { token, body: { path: '/Team/a', name: 'a1.txt', newPath: '/Team/c/deep2' } })],
    ['a folder moved between folders', () => call(server, apiCalls.file_move, { token, body: { path: '/Team/b', name: 'sub', newPath: '/Team/c' } })],
    ['a folder copied', () => call(server, apiCalls.file_copy, { token, body: { path: '/Team/c', name: 'deep2', newPath: '/Team/a' } })],
    ['a folder created', () => createFolder(server, token, '/Team/a/sub', 'fresh').then(() => ({ status: 200 }))],
    ['a file trashed', () => call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/c/c1.txt'] } })],
    ['a file restored from the trash', async () => call(server, apiCalls.trash_restore, { token, body: { ids: [await trashIdOf('c1.txt')] } })],
    ['a folder trashed', () => call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/c/sub'] } })],
    ['a folder restored from the trash', async () => call(server, apiCalls.trash_restore, { token, body: { ids: [await trashIdOf('sub')] } })],
    [
      'a file deleted for good',
      async () => {
        await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/top.txt'] } });
        return call(server, apiCalls.trash_delete, { token, params: { id: await trashIdOf('top.txt') } });
      },
    ],
    [
      'an earlier version made current',
      async () => {
        const versions = await call(server, apiCalls.file_versions, { token, query: { path: '/Team/a/sub/a2.txt' } });
        return call(server, apiCalls.file_version_restore, { token, body: { path: '/Team/a/sub/a2.txt', id: versions.body.items[0]!._id } });
      },
    ],
    [
      'two folders that swap names (same paths, other contents)',
      async () => {
        await call(server, apiCalls.file_rename, { token, body: { path: '/Team', name: 'a', newName: 'swap' } });
        await call(server, apiCalls.file_rename, { token, body: { path: '/Team', name: 'b', newName: 'a' } });
        return call(server, apiCalls.file_rename, { token, body: { path: '/Team', name: 'swap', newName: 'b' } });
      },
    ],
    [
      "an owner's new email",
      () =>
        server.app.db
          .updateTable('users')
          .set({ email: 'owner2@example.com' })
          .where('email', '=', 'owner@example.com')
          .execute()
          .then(() => ({ status: 200 })),
    ],
  ])('shows %s', async (change, make) => {
    const answer = await make();
    expect(answer.status, change).toBe(200);
    await expectSnapshotOfLive(change);
  });

  it('trusts the counters: a change made behind their back is not picked up until they move', async () => {
    const before = await expectSnapshotOfLive('before');
    // A write that does not count (none of the product's does: the triggers count them all).
    const file = await server.app.db.selectFrom('nodes').select(['id', 'parent_id']).where('name', '=', 'c2.txt').executeTakeFirstOrThrow();
    await server.app.db.updateTable('nodes').set({ name: 'hidden.txt' }).where('id', '=', file.id).execute();
    await sql`update tree_changes set changes = changes - 1 where folder_id = ${file.parent_id}`.execute(server.app.db);
    const stale = await runPlan(server, token, planId);
    expect(stale).toMatchObject({ status: 'completed' });
    expect(await catalogOf(stale._id)).toEqual(await catalogOf(before._id));
    expect(Object.keys(await liveCatalog()).some((p) => p.endsWith('/hidden.txt'))).toBe(true);

    // Any counted change in that folder brings it up to date.
    const folder = await server.app.db.selectFrom('nodes').select(['name', 'parent_id']).where('id', '=', file.parent_id).executeTakeFirstOrThrow();
    await server.app.db.updateTable('nodes').set({ mtime: new Date().toISOString() }).where('id', '=', file.id).execute();
    expect(folder.name).toBe('deeper');
    await expectSnapshotOfLive('after a counted change');
  });
});
