import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, namesIn, signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { recordsOf } from './audit-actions-helpers.js';

describeEachDialect('file browsing on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    for (const name of ['Team', 'Team2', 'Old_deleted_1']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('creates root folders for administrators only, bound to a backend', async () => {
    expect(await callRefused(server, apiCalls.folder_create, { token: user.token, body: { name: 'Mine', path: '/' } })).toMatchObject({
      status: 403,
      body: { message: 'no_access_warning' },
    });
    const cloud = await call(server, apiCalls.folder_create, { token: admin.token, body: { name: 'Cloud', path: '/', backend: 'cloud' } });
    expect(cloud.body).toMatchObject({ name: 'Cloud', path: '/Cloud', folder: true, size: 0, lock: false, starred: false, extension: '' });
    expect(await callRefused(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } })).toMatchObject({
      status: 409,
      body: { message: 'file_exists_warning' },
    });

    const roots = await call(server, apiCalls.root_list, { token: user.token });
    const names = roots.body.map((r) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Team', 'Team2', 'Cloud']));
    expect(names).not.toContain('Old_deleted_1');
    expect(roots.body.find((r) => r.name === 'Cloud')).toMatchObject({
      path: '/Cloud',
      backend: 'cloud',
      volume: null,
      usage: 0,
      owner: admin.user._id,
    });
    expect(roots.body.find((r) => r.name === 'Team')).toMatchObject({ backend: 'server' });
  });

  it('lets a USER create folders inside a root with the default permissions, by the folder rule', async () => {
    const made = await call(server, apiCalls.folder_create, { token: user.token, body: { name: '  보고서 (2026)!  ', path: '/Team' } });
    expect(made.body).toMatchObject({ name: '보고서 (2026)!', path: '/Team/보고서 (2026)!', folder: true, owner: user.user._id });
    for (const name of ['', '   ', 'a/b', 'dot.name', 'semi;colon', 'tab\tname', '..']) {
      expect(await callRefused(server, apiCalls.folder_create, { token: user.token, body: { name, path: '/Team' } })).toMatchObject({
        status: 400,
        body: { message: 'rules_folder' },
      });
    }
    expect(await callRefused(server, apiCalls.folder_create, { token: user.token, body: { name: '보고서 (2026)!', path: '/Team' } })).toMatchObject({
      status: 409,
      body: { message: 'file_exists_warning' },
    });
    expect(await callRefused(server, apiCalls.folder_create, { token: user.token, body: { name: 'x', path: '/Nowhere' } })).toMatchObject({
      status: 404,
      body: { message: 'folder_not_found' },
    });
    expect(await callRefused(server, apiCalls.folder_create, { token: user.token, body: { name: 'x', path: '/Team/Nowhere/deeper' } })).toMatchObject({
      status: 404,
    });
  });

  it('lists folders first, then by the sort, with paging and stars per caller', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'List', path: '/Team' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'zeta', path: '/Team/List' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'alpha', path: '/Team/List' } });
    await addFile(server, '/Team/List', 'b.txt', 30, master.user._id);
    await addFile(server, '/Team/List', 'a.PDF', 10, master.user._id);
    await addFile(server, '/Team/List', 'c', 20, master.user._id);

    expect(await namesIn(server, user.token, '/Team/List')).toEqual(['alpha', 'zeta', 'a.PDF', 'b.txt', 'c']);
    const bySize = await call(server, apiCalls.file_list, { token: user.token, query: { path: '/Team/List', sort: '-size' } });
    expect(bySize.body.items.map((i) => i.name)).toEqual(['alpha', 'zeta', 'b.txt', 'c', 'a.PDF']);
    const page = await call(server, apiCalls.file_list, { token: user.token, query: { path: '/Team/List', skip: 1, limit: 2 } });
    expect(page.body).toMatchObject({ total: 5, items: [{ name: 'zeta' }, { name: 'a.PDF' }] });
    const pdf = page.body.items[1];
    expect(pdf).toMatchObject({ path: '/Team/List/a.PDF', folder: false, size: 10, extension: 'pdf', starred: false, lock: false });

    expect((await call(server, apiCalls.file_star, { token: user.token, body: { path: '/Team/List/a.PDF', starred: true } })).body).toMatchObject({
      success: true,
    });
    const mine = await call(server, apiCalls.file_list, { token: user.token, query: { path: '/Team/List' } });
    expect(mine.body.items.find((i) => i.name === 'a.PDF')!.starred).toBe(true);
    const theirs = await call(server, apiCalls.file_list, { token: master.token, query: { path: '/Team/List' } });
    expect(theirs.body.items.find((i) => i.name === 'a.PDF')!.starred).toBe(false);

    const top = await call(server, apiCalls.file_list, { token: user.token, query: { path: '/' } });
    expect(top.body.items.map((i) => i.name)).toEqual(expect.arrayContaining(['Team', 'Team2']));
    expect(top.body.items.map((i) => i.name)).not.toContain('Old_deleted_1');

    expect(await callRefused(server, apiCalls.file_list, { token: user.token, query: { path: '/Team/List/c' } })).toMatchObject({ status: 404 });
    expect(await callRefused(server, apiCalls.file_list, { token: user.token, query: { path: '/Missing' } })).toMatchObject({
      status: 404,
      body: { message: 'folder_not_found' },
    });
  });

  it('answers the tree: roots, and the folders along a path expanded', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Tree', path: '/Team2' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'a', path: '/Team2/Tree' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'b', path: '/Team2/Tree' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'inner', path: '/Team2/Tree/a' } });
    await addFile(server, '/Team2/Tree', 'file.txt', 1, master.user._id);

    const flat = await call(server, apiCalls.file_tree, { token: user.token });
    const team2 = flat.body.find((n) => n.name === 'Team2');
    expect(team2).toMatchObject({ path: '/Team2', folder: true, expanded: false, children: [], lock: false });

    const deep = await call(server, apiCalls.file_tree, { token: user.token, query: { path: '/Team2/Tree/a' } });
    const root = deep.body.find((n) => n.name === 'Team2')!;
    expect(root.expanded).toBe(true);
    const tree = root.children.find((n) => n.name === 'Tree')!;
    expect(tree).toMatchObject({ path: '/Team2/Tree', expanded: true });
    expect(tree.children.map((n) => n.name)).toEqual(['a', 'b']);
    expect(tree.children[0]).toMatchObject({
      path: '/Team2/Tree/a',
      expanded: true,
      children: [{ name: 'inner', path: '/Team2/Tree/a/inner', expanded: false }],
    });
    expect(deep.body.find((n) => n.name === 'Team')!.expanded).toBe(false);
    expect(await callRefused(server, apiCalls.file_tree, { token: user.token, query: { path: '/Team2/Nope' } })).toMatchObject({ status: 404 });
  });

  it('answers the permissions at a path; a missing path holds none', async () => {
    const userHeld = await call(server, apiCalls.resource_permission, { token: user.token, query: { path: '/Team' } });
    expect(userHeld.body).toEqual(['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH']);
    const adminHeld = await call(server, apiCalls.resource_permission, { token: admin.token, query: { path: '/Team' } });
    expect(adminHeld.body).toHaveLength(13);
    expect((await call(server, apiCalls.resource_permission, { token: user.token, query: { path: '/Nope/x' } })).body).toEqual([]);
    expect((await call(server, apiCalls.resource_permission, { token: user.token, query: { path: '/' } })).body).toEqual(['READ']);
    expect((await call(server, apiCalls.resource_permission, { token: admin.token, query: { path: '/' } })).body).toEqual(['READ', 'CREATE']);
  });

  it('follows the default permissions kept in the settings', async () => {
    const saved = await server.app.db.selectFrom('settings').select('value').where('key', '=', 'permission').executeTakeFirstOrThrow();
    await server.app.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ user: ['READ', 'NOT_A_PERMISSION'], admin: JSON.parse(saved.value).admin }) })
      .where('key', '=', 'permission')
      .execute();
    try {
      expect((await call(server, apiCalls.resource_permission, { token: user.token, query: { path: '/Team' } })).body).toEqual(['READ']);
      expect(await callRefused(server, apiCalls.folder_create, { token: user.token, body: { name: 'Denied', path: '/Team' } })).toMatchObject({
        status: 403,
        body: { message: 'no_access_warning' },
      });
      expect(await call(server, apiCalls.file_list, { token: user.token, query: { path: '/Team' } })).toMatchObject({ status: 200 });
    } finally {
      await server.app.db.updateTable('settings').set({ value: saved.value }).where('key', '=', 'permission').execute();
    }
  });

  it('locks folders with LOCK / UNLOCK permission only', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Secure', path: '/Team' } });
    expect(await callRefused(server, apiCalls.file_lock, { token: user.token, body: { path: '/Team/Secure', lock: true } })).toMatchObject({
      status: 403,
      body: { message: 'no_access_warning' },
    });
    const locked = await call(server, apiCalls.file_lock, { token: admin.token, body: { path: '/Team/Secure', lock: true } });
    expect(locked).toMatchObject({ status: 200, body: { path: '/Team/Secure', lock: true } });
    const tree = await call(server, apiCalls.file_tree, { token: user.token, query: { path: '/Team' } });
    const team = tree.body.find((n) => n.name === 'Team')!;
    expect(team.children.find((n) => n.name === 'Secure')!.lock).toBe(true);
    const records = await recordsOf(server, { actions: ['file.lock', 'file.mkdir'] });
    expect(records).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'file.lock', outcome: 'allowed', targetPath: '/Team/Secure', params: { locked: true } }),
        expect.objectContaining({ action: 'file.lock', outcome: 'refused', reason: 'no_access_warning', targetPath: '/Team/Secure' }),
        expect.objectContaining({ action: 'file.mkdir', targetPath: '/Team', params: { root: true, backend: 'server' } }),
      ]),
    );
  });

  it('keeps recent files and starred items per user, live and readable only', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Marks', path: '/Team' } });
    await addFile(server, '/Team/Marks', 'one.txt', 1, user.user._id);
    await new Promise((r) => setTimeout(r, 5));
    await addFile(server, '/Team/Marks', 'two.txt', 1, user.user._id);
    await addFile(server, '/Team/Marks', 'master.txt', 1, master.user._id);

    const recent = await call(server, apiCalls.file_recent, { token: user.token });
    expect(recent.body.items.map((i) => i.path).slice(0, 2)).toEqual(['/Team/Marks/two.txt', '/Team/Marks/one.txt']);
    expect(recent.body.items.map((i) => i.name)).not.toContain('master.txt');

    const one = await server.app.fileTree.resolve('/Team/Marks/one.txt');
    await server.app.fileTree.touch(user.user._id, one!);
    const again = await call(server, apiCalls.file_recent, { token: user.token, query: { limit: 1 } });
    expect(again.body.items.map((i) => i.name)).toEqual(['one.txt']);

    await call(server, apiCalls.file_star, { token: user.token, body: { path: '/Team/Marks', starred: true } });
    await call(server, apiCalls.file_star, { token: user.token, body: { path: '/Team/Marks/two.txt', starred: true } });
    const starred = await call(server, apiCalls.file_starred, { token: user.token });
    expect(starred.body.items.map((i) => i.path)).toEqual(expect.arrayContaining(['/Team/Marks', '/Team/Marks/two.txt']));
    expect(starred.body.items.every((i) => i.starred)).toBe(true);

    await call(server, apiCalls.file_star, { token: user.token, body: { path: '/Team/Marks/two.txt', starred: false } });
    // Trashing the folder hides what lies in it from Recent and Starred.
    await call(server, apiCalls.file_trash, { token: user.token, body: { paths: ['/Team/Marks'] } });
    const after = await call(server, apiCalls.file_starred, { token: user.token });
    expect(after.body.items.map((i) => i.path)).not.toEqual(expect.arrayContaining(['/Team/Marks']));
    const recentAfter = await call(server, apiCalls.file_recent, { token: user.token });
    expect(recentAfter.body.items.map((i) => i.name)).not.toContain('one.txt');
  });
});
