import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, namesIn, refCount, signInAs, usageOf } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { recordsOf } from './audit-actions-helpers.js';

describeEachDialect('trash on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  let other: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
    other = await signInAs(server, 'other@example.com');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const mkdir = (path: string, name: string) => call(server, apiCalls.folder_create, { token: master.token, body: { name, path } });
  const trash = (paths: string[], token = user.token) => call(server, apiCalls.file_trash, { token, body: { paths } });
  const list = (token: string) => call(server, apiCalls.trash_list, { token });
  const restore = (ids: string[], token = user.token) => call(server, apiCalls.trash_restore, { token, body: { ids } });
  const restoreRefused = (ids: string[], token = user.token) => callRefused(server, apiCalls.trash_restore, { token, body: { ids } });

  it('trashes items with their children; usage still counts them; the name is free again', async () => {
    await mkdir('/Team', 't1');
    await mkdir('/Team/t1', 'inner');
    await addFile(server, '/Team/t1/inner', 'deep.txt', 70, user.user._id, 't1-deep');
    const before = await usageOf(server, user.token, '/Team');
    const res = await trash(['/Team/t1', '/Team/t1/inner']);
    expect(res.body.ids).toHaveLength(1);
    expect(await namesIn(server, user.token, '/Team')).not.toContain('t1');
    expect(await callRefused(server, apiCalls.file_list, { token: user.token, query: { path: '/Team/t1/inner' } })).toMatchObject({ status: 404 });
    expect(await server.app.fileTree.resolve('/Team/t1/inner/deep.txt')).toBeUndefined();
    expect(await usageOf(server, user.token, '/Team')).toBe(before);
    await mkdir('/Team', 't1');

    const mine = await list(user.token);
    expect(mine.body.items).toEqual([
      {
        _id: res.body.ids[0],
        name: 't1',
        folder: true,
        size: 0,
        path: '/Team/t1',
        trashedAt: expect.any(String),
        trashedBy: { _id: user.user._id, name: '사용자', email: 'user@example.com' },
      },
    ]);
    // The name is taken by the new folder: restoring answers a clash and changes nothing.
    expect(await restoreRefused(res.body.ids)).toMatchObject({ status: 409, body: { message: 'file_exists_warning' } });
    await call(server, apiCalls.file_rename, { token: master.token, body: { path: '/Team', name: 't1', newName: 't1 new' } });
    expect(await restore(res.body.ids)).toMatchObject({ status: 200, body: { count: 1 } });
    expect(await namesIn(server, user.token, '/Team/t1/inner')).toEqual(['deep.txt']);
    expect(await usageOf(server, user.token, '/Team')).toBe(before);
    expect((await list(user.token)).body.items).toEqual([]);
  });

  it('shows a USER only their own trash, administrators all of it', async () => {
    await mkdir('/Team', 'shared');
    await addFile(server, '/Team/shared', 'u.txt', 1, user.user._id, 'u');
    await addFile(server, '/Team/shared', 'o.txt', 1, other.user._id, 'o');
    const mine = await trash(['/Team/shared/u.txt']);
    const theirs = await trash(['/Team/shared/o.txt'], other.token);
    expect((await list(user.token)).body.items.map((i) => i.name)).toEqual(['u.txt']);
    expect((await list(other.token)).body.items.map((i) => i.name)).toEqual(['o.txt']);
    const all = await list(master.token);
    expect(all.body.total).toBeGreaterThanOrEqual(2);
    expect(all.body.items.map((i) => i.name)).toEqual(expect.arrayContaining(['u.txt', 'o.txt']));
    // Someone else's trash entry is not found for a USER.
    expect(await restoreRefused(theirs.body.ids)).toMatchObject({ status: 404 });
    expect(await restoreRefused([...mine.body.ids, ...theirs.body.ids])).toMatchObject({ status: 404 });
    expect(await namesIn(server, user.token, '/Team/shared')).toEqual([]);
    expect(await restore(theirs.body.ids, master.token)).toMatchObject({ status: 200, body: { count: 1 } });
    expect(await restore(mine.body.ids)).toMatchObject({ status: 200 });
    expect(await namesIn(server, user.token, '/Team/shared')).toEqual(['o.txt', 'u.txt']);
  });

  it('refuses a restore when the folder it came from is gone or trashed', async () => {
    await mkdir('/Team', 'parent');
    await addFile(server, '/Team/parent', 'child.txt', 3, user.user._id, 'child');
    const child = await trash(['/Team/parent/child.txt']);
    const parent = await trash(['/Team/parent']);
    expect(await restoreRefused(child.body.ids)).toMatchObject({ status: 404, body: { message: 'folder_not_found' } });
    expect(await restore(parent.body.ids)).toMatchObject({ status: 200 });
    expect(await restore(child.body.ids)).toMatchObject({ status: 200 });
    expect(await namesIn(server, user.token, '/Team/parent')).toEqual(['child.txt']);
  });

  it('purges for administrators only: rows go, blob references and usage drop', async () => {
    await mkdir('/Team', 'purge');
    await mkdir('/Team/purge', 'sub');
    await addFile(server, '/Team/purge', 'p.bin', 100, user.user._id, 'purge-p');
    await addFile(server, '/Team/purge/sub', 'q.bin', 200, user.user._id, 'purge-q');
    await call(server, apiCalls.file_copy, { token: user.token, body: { path: '/Team/purge', name: 'p.bin', newPath: '/Team' } });
    expect(await refCount(server, 'purge-p')).toBe(2);
    await call(server, apiCalls.file_star, { token: user.token, body: { path: '/Team/purge/sub/q.bin', starred: true } });
    const before = await usageOf(server, user.token, '/Team');
    const trashed = await trash(['/Team/purge']);
    const id = trashed.body.ids[0]!;

    expect(await callRefused(server, apiCalls.trash_delete, { token: user.token, params: { id } })).toMatchObject({ status: 403 });
    expect(await callRefused(server, apiCalls.trash_empty, { token: user.token })).toMatchObject({ status: 403 });
    expect(await call(server, apiCalls.trash_delete, { token: master.token, params: { id } })).toMatchObject({ status: 200, body: { count: 1 } });
    expect(await callRefused(server, apiCalls.trash_delete, { token: master.token, params: { id } })).toMatchObject({ status: 404 });

    expect(await usageOf(server, user.token, '/Team')).toBe(before - 300);
    expect(await refCount(server, 'purge-p')).toBe(1);
    expect(await refCount(server, 'purge-q')).toBe(0);
    const rows = await server.app.db.selectFrom('nodes').select('id').where('name', 'in', ['purge', 'sub', 'q.bin']).execute();
    expect(rows).toEqual([]);
    const stars = await server.app.db.selectFrom('stars').select('node_id').where('user_id', '=', user.user._id).execute();
    expect(stars.length).toBe(0);
    // The copy outside the purged folder is untouched.
    expect(await namesIn(server, user.token, '/Team')).toContain('p.bin');
  });

  it('empties the whole trash, nested entries included, and records it', async () => {
    await mkdir('/Team', 'e1');
    await addFile(server, '/Team/e1', 'a.bin', 10, user.user._id, 'e1-a');
    await addFile(server, '/Team/e1', 'b.bin', 20, user.user._id, 'e1-b');
    await trash(['/Team/e1/a.bin']);
    await trash(['/Team/e1']);
    const before = await usageOf(server, user.token, '/Team');
    const emptied = await call(server, apiCalls.trash_empty, { token: master.token });
    expect(emptied.body.count).toBeGreaterThanOrEqual(1);
    expect((await list(master.token)).body).toEqual({ items: [], total: 0 });
    expect(await usageOf(server, user.token, '/Team')).toBe(before - 30);
    // One record per item purged (with the path it had), and the restores before.
    const records = await recordsOf(server, { actions: ['file.purge', 'file.restore'] });
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'file.purge', targetPath: '/Team/e1', actorAccountId: master.user._id }),
        expect.objectContaining({ action: 'file.restore' }),
      ]),
    );
  });

  it('trashes root folders for administrators only', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Temp', path: '/' } });
    expect(await callRefused(server, apiCalls.file_trash, { token: user.token, body: { paths: ['/Temp'] } })).toMatchObject({
      status: 403,
      body: { message: 'no_access_warning' },
    });
    const gone = await trash(['/Temp'], master.token);
    const roots = await call(server, apiCalls.root_list, { token: master.token });
    expect(roots.body.map((r) => r.name)).not.toContain('Temp');
    expect((await list(master.token)).body.items.find((i) => i.name === 'Temp')).toMatchObject({ path: '/Temp' });
    expect(await restore(gone.body.ids, master.token)).toMatchObject({ status: 200 });
    expect((await call(server, apiCalls.root_list, { token: master.token })).body.map((r) => r.name)).toContain('Temp');
  });
});
