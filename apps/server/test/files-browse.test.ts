import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, namesIn, signInAs } from './files-helpers.js';
import { describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
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
    for (const name of ['Team', 'Team2', 'Old_deleted_1']) {
      const res = await server.request('POST', '/api/file', { token: master.token, body: { name, path: '/' } });
      expect(res.status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const post = (token: string, body: unknown) => server.request('POST', '/api/file', { token, body });

  it('creates root folders for administrators only, bound to a backend', async () => {
    expect(await post(user.token, { name: 'Mine', path: '/' })).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    const cloud = await post(admin.token, { name: 'Cloud', path: '/', backend: 'cloud' });
    expect(cloud.status).toBe(200);
    expect(cloud.body).toMatchObject({ name: 'Cloud', path: '/Cloud', folder: true, size: 0, lock: false, starred: false, extension: '' });
    expect(await post(master.token, { name: 'Team', path: '/' })).toMatchObject({ status: 409, body: { message: 'file_exists_warning' } });

    const roots = await server.request('GET', '/api/file/root', { token: user.token });
    expect(roots.status).toBe(200);
    const names = roots.body.map((r: { name: string }) => r.name);
    expect(names).toEqual(expect.arrayContaining(['Team', 'Team2', 'Cloud']));
    expect(names).not.toContain('Old_deleted_1');
    expect(roots.body.find((r: { name: string }) => r.name === 'Cloud')).toMatchObject({
      path: '/Cloud',
      backend: 'cloud',
      volume: null,
      usage: 0,
      owner: admin.user._id,
    });
    expect(roots.body.find((r: { name: string }) => r.name === 'Team')).toMatchObject({ backend: 'server' });
  });

  it('lets a USER create folders inside a root with the default permissions, by the folder rule', async () => {
    const made = await post(user.token, { name: '  보고서 (2026)!  ', path: '/Team' });
    expect(made.status).toBe(200);
    expect(made.body).toMatchObject({ name: '보고서 (2026)!', path: '/Team/보고서 (2026)!', folder: true, owner: user.user._id });
    for (const name of ['', '   ', 'a/b', 'dot.name', 'semi;colon', 'tab\tname', '..']) {
      expect(await post(user.token, { name, path: '/Team' })).toMatchObject({ status: 400, body: { message: 'rules_folder' } });
    }
    expect(await post(user.token, { name: '보고서 (2026)!', path: '/Team' })).toMatchObject({ status: 409, body: { message: 'file_exists_warning' } });
    expect(await post(user.token, { name: 'x', path: '/Nowhere' })).toMatchObject({ status: 404, body: { message: 'folder_not_found' } });
    expect(await post(user.token, { name: 'x', path: '/Team/Nowhere/deeper' })).toMatchObject({ status: 404 });
  });

  it('lists folders first, then by the sort, with paging and stars per caller', async () => {
    await post(master.token, { name: 'List', path: '/Team' });
    await post(master.token, { name: 'zeta', path: '/Team/List' });
    await post(master.token, { name: 'alpha', path: '/Team/List' });
    await addFile(server, '/Team/List', 'b.txt', 30, master.user._id);
    await addFile(server, '/Team/List', 'a.PDF', 10, master.user._id);
    await addFile(server, '/Team/List', 'c', 20, master.user._id);

    expect(await namesIn(server, user.token, '/Team/List')).toEqual(['alpha', 'zeta', 'a.PDF', 'b.txt', 'c']);
    const bySize = await server.request('GET', '/api/file/list?path=/Team/List&sort=-size', { token: user.token });
    expect(bySize.body.items.map((i: { name: string }) => i.name)).toEqual(['alpha', 'zeta', 'b.txt', 'c', 'a.PDF']);
    const page = await server.request('GET', '/api/file/list?path=/Team/List&skip=1&limit=2', { token: user.token });
    expect(page.body).toMatchObject({ total: 5, items: [{ name: 'zeta' }, { name: 'a.PDF' }] });
    const pdf = page.body.items[1];
    expect(pdf).toMatchObject({ path: '/Team/List/a.PDF', folder: false, size: 10, extension: 'pdf', starred: false, lock: false });

    expect(await server.request('PUT', '/api/file/star', { token: user.token, body: { path: '/Team/List/a.PDF', starred: true } })).toMatchObject({
      status: 200,
      body: { success: true },
    });
    const mine = await server.request('GET', '/api/file/list?path=/Team/List', { token: user.token });
    expect(mine.body.items.find((i: { name: string }) => i.name === 'a.PDF').starred).toBe(true);
    const theirs = await server.request('GET', '/api/file/list?path=/Team/List', { token: master.token });
    expect(theirs.body.items.find((i: { name: string }) => i.name === 'a.PDF').starred).toBe(false);

    const top = await server.request('GET', '/api/file/list?path=/', { token: user.token });
    expect(top.body.items.map((i: { name: string }) => i.name)).toEqual(expect.arrayContaining(['Team', 'Team2']));
    expect(top.body.items.map((i: { name: string }) => i.name)).not.toContain('Old_deleted_1');

    expect(await server.request('GET', '/api/file/list?path=/Team/List/c', { token: user.token })).toMatchObject({ status: 404 });
    expect(await server.request('GET', '/api/file/list?path=/Missing', { token: user.token })).toMatchObject({
      status: 404,
      body: { message: 'folder_not_found' },
    });
  });

  it('answers the tree: roots, and the folders along a path expanded', async () => {
    await post(master.token, { name: 'Tree', path: '/Team2' });
    await post(master.token, { name: 'a', path: '/Team2/Tree' });
    await post(master.token, { name: 'b', path: '/Team2/Tree' });
    await post(master.token, { name: 'inner', path: '/Team2/Tree/a' });
    await addFile(server, '/Team2/Tree', 'file.txt', 1, master.user._id);

    const flat = await server.request('GET', '/api/file/tree', { token: user.token });
    expect(flat.status).toBe(200);
    const team2 = flat.body.find((n: { name: string }) => n.name === 'Team2');
    expect(team2).toMatchObject({ path: '/Team2', folder: true, expanded: false, children: [], lock: false });

    const deep = await server.request('GET', `/api/file/tree?path=${encodeURIComponent('/Team2/Tree/a')}`, { token: user.token });
    expect(deep.status).toBe(200);
    const root = deep.body.find((n: { name: string }) => n.name === 'Team2');
    expect(root.expanded).toBe(true);
    const tree = root.children.find((n: { name: string }) => n.name === 'Tree');
    expect(tree).toMatchObject({ path: '/Team2/Tree', expanded: true });
    expect(tree.children.map((n: { name: string }) => n.name)).toEqual(['a', 'b']);
    expect(tree.children[0]).toMatchObject({
      path: '/Team2/Tree/a',
      expanded: true,
      children: [{ name: 'inner', path: '/Team2/Tree/a/inner', expanded: false }],
    });
    expect(deep.body.find((n: { name: string }) => n.name === 'Team').expanded).toBe(false);
    expect(await server.request('GET', '/api/file/tree?path=/Team2/Nope', { token: user.token })).toMatchObject({ status: 404 });
  });

  it('answers the permissions at a path; a missing path holds none', async () => {
    const userHeld = await server.request('GET', '/api/resource/permission?path=/Team', { token: user.token });
    expect(userHeld.body).toEqual(['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH']);
    const adminHeld = await server.request('GET', '/api/resource/permission?path=/Team', { token: admin.token });
    expect(adminHeld.body).toHaveLength(13);
    expect((await server.request('GET', '/api/resource/permission?path=/Nope/x', { token: user.token })).body).toEqual([]);
    expect((await server.request('GET', '/api/resource/permission?path=/', { token: user.token })).body).toEqual(['READ']);
    expect((await server.request('GET', '/api/resource/permission?path=/', { token: admin.token })).body).toEqual(['READ', 'CREATE']);
  });

  it('follows the default permissions kept in the settings', async () => {
    const saved = await server.app.db.selectFrom('settings').select('value').where('key', '=', 'permission').executeTakeFirstOrThrow();
    await server.app.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ user: ['READ', 'NOT_A_PERMISSION'], admin: JSON.parse(saved.value).admin }) })
      .where('key', '=', 'permission')
      .execute();
    try {
      expect((await server.request('GET', '/api/resource/permission?path=/Team', { token: user.token })).body).toEqual(['READ']);
      expect(await post(user.token, { name: 'Denied', path: '/Team' })).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
      expect(await server.request('GET', '/api/file/list?path=/Team', { token: user.token })).toMatchObject({ status: 200 });
    } finally {
      await server.app.db.updateTable('settings').set({ value: saved.value }).where('key', '=', 'permission').execute();
    }
  });

  it('locks folders with LOCK / UNLOCK permission only', async () => {
    await post(master.token, { name: 'Secure', path: '/Team' });
    expect(await server.request('PUT', '/api/file/lock', { token: user.token, body: { path: '/Team/Secure', lock: true } })).toMatchObject({
      status: 403,
      body: { message: 'no_access_warning' },
    });
    const locked = await server.request('PUT', '/api/file/lock', { token: admin.token, body: { path: '/Team/Secure', lock: true } });
    expect(locked).toMatchObject({ status: 200, body: { path: '/Team/Secure', lock: true } });
    const tree = await server.request('GET', '/api/file/tree?path=/Team', { token: user.token });
    const team = tree.body.find((n: { name: string }) => n.name === 'Team');
    expect(team.children.find((n: { name: string }) => n.name === 'Secure').lock).toBe(true);
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
    await post(master.token, { name: 'Marks', path: '/Team' });
    await addFile(server, '/Team/Marks', 'one.txt', 1, user.user._id);
    await new Promise((r) => setTimeout(r, 5));
    await addFile(server, '/Team/Marks', 'two.txt', 1, user.user._id);
    await addFile(server, '/Team/Marks', 'master.txt', 1, master.user._id);

    const recent = await server.request('GET', '/api/file/recent', { token: user.token });
    expect(recent.status).toBe(200);
    expect(recent.body.items.map((i: { path: string }) => i.path).slice(0, 2)).toEqual(['/Team/Marks/two.txt', '/Team/Marks/one.txt']);
    expect(recent.body.items.map((i: { name: string }) => i.name)).not.toContain('master.txt');

    const one = await server.app.fileTree.resolve('/Team/Marks/one.txt');
    await server.app.fileTree.touch(user.user._id, one!);
    const again = await server.request('GET', '/api/file/recent?limit=1', { token: user.token });
    expect(again.body.items.map((i: { name: string }) => i.name)).toEqual(['one.txt']);

    await server.request('PUT', '/api/file/star', { token: user.token, body: { path: '/Team/Marks', starred: true } });
    await server.request('PUT', '/api/file/star', { token: user.token, body: { path: '/Team/Marks/two.txt', starred: true } });
    const starred = await server.request('GET', '/api/file/starred', { token: user.token });
    expect(starred.body.items.map((i: { path: string }) => i.path)).toEqual(expect.arrayContaining(['/Team/Marks', '/Team/Marks/two.txt']));
    expect(starred.body.items.every((i: { starred: boolean }) => i.starred)).toBe(true);

    await server.request('PUT', '/api/file/star', { token: user.token, body: { path: '/Team/Marks/two.txt', starred: false } });
    // Trashing the folder hides what lies in it from Recent and Starred.
    await server.request('POST', '/api/file/trash', { token: user.token, body: { paths: ['/Team/Marks'] } });
    const after = await server.request('GET', '/api/file/starred', { token: user.token });
    expect(after.body.items.map((i: { path: string }) => i.path)).not.toEqual(expect.arrayContaining(['/Team/Marks']));
    const recentAfter = await server.request('GET', '/api/file/recent', { token: user.token });
    expect(recentAfter.body.items.map((i: { name: string }) => i.name)).not.toContain('one.txt');
  });
});
