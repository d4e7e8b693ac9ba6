import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, signInAs } from './files-helpers.js';
import { describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { connect, next } from './sockets.js';
import { upload } from './transfer-helpers.js';

describeEachDialect('groups and folder permissions on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com');
    for (const name of ['Team', 'Vault']) await server.request('POST', '/api/file', { token: master.token, body: { name, path: '/' } });
    await server.request('POST', '/api/file', { token: master.token, body: { name: 'Sub', path: '/Team' } });
    await addFile(server, '/Team/Sub', 'deep.txt', 10, master.user._id);
  });
  afterAll(async () => {
    await server?.close();
  });

  const perms = async (token: string, path: string) =>
    ((await server.request('GET', `/api/resource/permission?path=${encodeURIComponent(path)}`, { token })).body as string[]).sort();
  const group = async (name: string) =>
    (await server.request('POST', '/api/group', { token: master.token, body: { name, description: `${name} team` } })).body._id as string;
  const join = (groupId: string, userIds: string[]) => server.request('POST', `/api/group/${groupId}/members`, { token: master.token, body: { userIds } });
  const grant = (path: string, body: Record<string, unknown>, token = master.token) =>
    server.request('PUT', '/api/resource', { token, body: { path, ...body } });
  const setDefaults = (permission: Record<string, string[]>, token = master.token) =>
    server.request('PUT', '/api/setting', { token, body: { _id: 'settings', permission } });

  it('effective permission: a table of cases (own entry, groups, defaults, inheritance)', async () => {
    expect((await setDefaults({ user: ['READ', 'PREVIEW'] })).status).toBe(200);
    const u = await signInAs(server, 'table@example.com');
    // No groups, no entries: the defaults.
    expect(await perms(u.token, '/Team/Sub')).toEqual(['PREVIEW', 'READ']);

    const g1 = await group('g-one');
    const g2 = await group('g-two');
    await join(g1, [u.user._id]);
    // In a group that has no entry: still the defaults.
    expect(await perms(u.token, '/Team')).toEqual(['PREVIEW', 'READ']);

    // The group's entry on the root is inherited below it.
    expect((await grant('/Team', { groups: [{ entity: g1, permissions: ['READ', 'DOWNLOAD'] }] })).status).toBe(200);
    expect(await perms(u.token, '/Team/Sub/deep.txt')).toEqual(['DOWNLOAD', 'READ']);

    // A second group without an entry adds the defaults; with one, its permissions.
    await join(g2, [u.user._id]);
    expect(await perms(u.token, '/Team/Sub')).toEqual(['DOWNLOAD', 'PREVIEW', 'READ']);
    await grant('/Team', { groups: [{ entity: g2, permissions: ['CREATE', 'UNKNOWN_NAME'] }] });
    expect(await perms(u.token, '/Team/Sub')).toEqual(['CREATE', 'DOWNLOAD', 'READ']);

    // The nearest entry of a group wins: Sub narrows g1 to READ.
    await grant('/Team/Sub', { groups: [{ entity: g1, permissions: ['READ'] }] });
    expect(await perms(u.token, '/Team/Sub/deep.txt')).toEqual(['CREATE', 'READ']);
    expect(await perms(u.token, '/Team')).toEqual(['CREATE', 'DOWNLOAD', 'READ']);

    // The user's own entry wins over every group.
    await grant('/Team', { users: [{ entity: u.user._id, access: 1 }] });
    expect(await perms(u.token, '/Team/Sub')).toEqual(['DOWNLOAD', 'PREVIEW', 'READ']);
    // An empty own entry denies everything, even listing.
    await grant('/Team/Sub', { users: [{ entity: u.user._id, permissions: [] }] });
    expect(await perms(u.token, '/Team/Sub')).toEqual([]);
    expect((await server.request('GET', '/api/file/list?path=/Team/Sub', { token: u.token })).status).toBe(403);
    // Removing the entry falls back to what is inherited.
    await grant('/Team/Sub', { users: [{ entity: u.user._id, remove: true }] });
    expect(await perms(u.token, '/Team/Sub')).toEqual(['DOWNLOAD', 'PREVIEW', 'READ']);
    // Another root is untouched by all of it.
    expect(await perms(u.token, '/Vault')).toEqual(['PREVIEW', 'READ']);
    // Administrators follow their role: ADMIN the admin defaults, MASTER everything.
    expect(await perms(admin.token, '/Team/Sub')).toContain('SETTING');
    expect((await perms(master.token, '/Team/Sub')).length).toBe(13);
  });

  it('every file call follows the grant: READ+DOWNLOAD lists and downloads, nothing else', async () => {
    await setDefaults({ user: [] });
    const reader = await signInAs(server, 'reader@example.com');
    const readers = await group('readers');
    await join(readers, [reader.user._id]);
    await grant('/Vault', { groups: [{ entity: readers, permissions: ['READ', 'DOWNLOAD'] }] });
    expect((await upload(server, master.token, '/Vault', 'plan.txt', Buffer.from('plan!'))).status).toBe(200);
    expect((await server.request('GET', '/api/file/list?path=/Vault', { token: reader.token })).body.items.map((i: { name: string }) => i.name)).toEqual([
      'plan.txt',
    ]);
    expect((await server.request('GET', '/api/file/download?path=/Vault/plan.txt', { token: reader.token })).status).toBe(200);
    expect((await server.request('GET', '/api/file/preview?path=/Vault/plan.txt', { token: reader.token })).status).toBe(403);
    expect((await server.request('POST', '/api/file', { token: reader.token, body: { name: 'x', path: '/Vault' } })).status).toBe(403);
    expect((await server.request('POST', '/api/file/trash', { token: reader.token, body: { paths: ['/Vault/plan.txt'] } })).status).toBe(403);
    expect(
      (await server.request('PUT', '/api/file/rename', { token: reader.token, body: { path: '/Vault', name: 'plan.txt', newName: 'y.txt' } })).status,
    ).toBe(403);
    // Other users (defaults now empty) see nothing there.
    expect((await server.request('GET', '/api/file/list?path=/Vault', { token: user.token })).status).toBe(403);
    await setDefaults({ user: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'] });
  });

  it('editing permissions needs SETTING on the path; unknown entities are refused', async () => {
    const editor = await signInAs(server, 'editor@example.com');
    expect((await grant('/Team', { users: [{ entity: editor.user._id, access: 3 }] }, admin.token)).status).toBe(200);
    // USERs never reach the resource calls (level 2).
    expect((await grant('/Team', { users: [{ entity: editor.user._id, access: 3 }] }, editor.token)).status).toBe(403);
    // An ADMIN whose defaults lack SETTING cannot edit.
    await setDefaults({ admin: ['READ', 'PREVIEW', 'DOWNLOAD'] });
    expect(await grant('/Team', { users: [{ entity: user.user._id, access: 1 }] }, admin.token)).toMatchObject({
      status: 403,
      body: { message: 'no_access_warning' },
    });
    await setDefaults({ admin: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'LOCK', 'UNLOCK', 'TRASH', 'DELETE', 'SETTING'] });
    expect((await grant('/Team', { users: [{ entity: 'no-such-user', access: 1 }] })).body.message).toBe('user_not_found');
    expect((await grant('/Team', { groups: [{ entity: 'no-such-group', access: 1 }] })).body.message).toBe('group_not_found');
    expect((await grant('/Nowhere', { users: [{ entity: user.user._id, access: 1 }] })).status).toBe(404);
  });

  it('lists, updates by id and deletes resources; access levels map to permissions', async () => {
    const list = await server.request('GET', '/api/resource?path=/Team', { token: admin.token });
    expect(list.status).toBe(200);
    const resource = list.body[0];
    expect(resource).toMatchObject({ path: '/Team', folder: true, name: 'Team' });
    const editorEntry = resource.users.find((e: { entity: { email: string } }) => e.entity.email === 'editor@example.com');
    expect(editorEntry.access).toBe(3);
    expect(editorEntry.permissions).toHaveLength(13);
    const updated = await server.request('PUT', '/api/resource', {
      token: master.token,
      body: { _id: resource._id, users: [{ entity: editorEntry.entity._id, access: 2 }] },
    });
    expect(updated.body.users.find((e: { entity: { _id: string } }) => e.entity._id === editorEntry.entity._id)).toMatchObject({ access: 2 });
    expect((await server.request('DELETE', `/api/resource/${resource._id}`, { token: master.token })).status).toBe(200);
    expect((await server.request('GET', '/api/resource?path=/Team', { token: admin.token })).body).toEqual([]);
    expect((await server.request('DELETE', `/api/resource/${resource._id}`, { token: master.token })).body.message).toBe('resource_not_found');
  });

  it('default permissions: only MASTER changes the admin row; unknown names are dropped', async () => {
    expect((await setDefaults({ admin: ['READ'] }, admin.token)).status).toBe(403);
    const saved = await setDefaults({ user: ['READ', 'BOGUS', 'DOWNLOAD'] }, admin.token);
    expect(saved.body[0].permission.user).toEqual(['READ', 'DOWNLOAD']);
    const read = await server.request('GET', '/api/setting', { token: admin.token });
    expect(read.body[0].permission.user).toEqual(['READ', 'DOWNLOAD']);
    expect((await setDefaults({ user: ['READ'] }, user.token)).status).toBe(403);
    await setDefaults({ user: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'] });
  });

  it('the setting (server path, cloud bucket) is not readable by a USER', async () => {
    const refused = await server.request('GET', '/api/setting', { token: user.token });
    expect(refused).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect(refused.text).not.toContain('path');
    const read = await server.request('GET', '/api/setting', { token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body[0].server).toHaveProperty('path');
  });

  it('the default user row never holds DELETE or SETTING, so a USER never becomes a manager by default', async () => {
    const everything = ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'LOCK', 'UNLOCK', 'TRASH', 'DELETE', 'SETTING'];
    const saved = await setDefaults({ user: everything }, admin.token);
    expect(saved.status).toBe(200);
    expect(saved.body[0].permission.user).not.toContain('SETTING');
    expect(saved.body[0].permission.user).not.toContain('DELETE');
    expect(saved.body[0].permission.user).toContain('LOCK');
    const plain = await signInAs(server, 'plain-defaults@example.com');
    const held = await perms(plain.token, '/Vault');
    expect(held).not.toContain('SETTING');
    expect(held).not.toContain('DELETE');
    // A row stored before this rule (written straight into the settings) is read the same way.
    await server.app.db
      .updateTable('settings')
      .set({ value: JSON.stringify({ user: everything, admin: everything }) })
      .where('key', '=', 'permission')
      .execute();
    expect(await perms(plain.token, '/Vault')).not.toContain('SETTING');
    expect((await server.request('GET', '/api/setting', { token: admin.token })).body[0].permission.user).not.toContain('SETTING');
    await setDefaults({ user: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'] });
  });

  it('groups: create, edit, invite with a notification, remove a member, delete (not default)', async () => {
    const member = await signInAs(server, 'member@example.com');
    const { socket } = await connect(server.url, { token: member.token });
    try {
      const id = await group('design');
      expect((await server.request('POST', '/api/group', { token: master.token, body: { name: 'design' } })).body.message).toBe('group_name_duplicate');
      expect((await server.request('POST', '/api/group', { token: master.token, body: { name: '  ' } })).body.message).toBe('rules_group_name_required');
      const notified = next<{ key: string; params: Record<string, unknown> }>(socket, 'notification');
      const invited = await join(id, [member.user._id]);
      expect(invited.body.userCount).toBe(1);
      expect(await notified).toMatchObject({ key: 'note_group_added', params: { group: expect.stringContaining('design') } });
      const edited = await server.request('PUT', '/api/group', { token: admin.token, body: { _id: id, name: 'design-team', description: 'UI' } });
      expect(edited.body).toMatchObject({ name: 'design-team', description: 'UI' });
      await grant('/Team', { groups: [{ entity: id, access: 1 }] });
      const listed = (await server.request('GET', '/api/group', { token: admin.token })).body.find((g: { _id: string }) => g._id === id);
      expect(listed.users.map((u: { email: string }) => u.email)).toEqual(['member@example.com']);
      expect(listed.permissions.find((p: { path: string }) => p.path === '/Team')).toMatchObject({ access: 1, explicit: true });
      expect((await server.request('GET', '/api/group/info', { token: member.token })).body.map((g: { name: string }) => g.name)).toContain('design-team');
      expect((await server.request('DELETE', `/api/group/${id}/members/${member.user._id}`, { token: master.token })).body.userCount).toBe(0);
      await join(id, [member.user._id]);
      expect((await server.request('DELETE', `/api/group/${id}`, { token: master.token })).status).toBe(200);
      const account = (await server.request('GET', `/api/user?_id=${member.user._id}`, { token: master.token })).body[0];
      expect(account.groups.map((g: { _id: string }) => g._id)).not.toContain(id);
      expect((await server.request('GET', '/api/resource?path=/Team', { token: master.token })).body[0]?.groups ?? []).not.toContainEqual(
        expect.objectContaining({ entity: expect.objectContaining({ _id: id }) }),
      );
      const def = (await server.request('GET', '/api/group/info', { token: master.token })).body.find((g: { name: string }) => g.name === 'default');
      expect((await server.request('DELETE', `/api/group/${def._id}`, { token: master.token })).body.message).toBe('default_group_undeletable');
      expect((await server.request('POST', '/api/group', { token: user.token, body: { name: 'mine' } })).status).toBe(403);
    } finally {
      socket.close();
    }
  });

  it('the default group keeps its name, with its own message; its description can change', async () => {
    const def = (await server.request('GET', '/api/group/info', { token: master.token })).body.find((g: { name: string }) => g.name === 'default');
    const renamed = await server.request('PUT', '/api/group', { token: master.token, body: { _id: def._id, name: 'everyone', description: 'All accounts' } });
    expect(renamed).toMatchObject({ status: 409, body: { message: 'default_group_unrenamable' } });
    expect((await server.request('GET', '/api/group/info', { token: master.token })).body.map((g: { name: string }) => g.name)).toContain('default');
    const described = await server.request('PUT', '/api/group', { token: admin.token, body: { _id: def._id, name: 'default', description: 'All accounts' } });
    expect(described.body).toMatchObject({ name: 'default', description: 'All accounts' });
  });

  it('group members follow the account rules: a level-2 admin invites and removes USERs only', async () => {
    const teamId = await group('rules-team');
    const plain = await signInAs(server, 'rules-user@example.com');
    const otherAdmin = await signInAs(server, 'rules-admin@example.com', 'ADMIN');
    const members = async () =>
      (await server.request('GET', '/api/group', { token: master.token })).body
        .find((g: { _id: string }) => g._id === teamId)
        .users.map((u: { email: string }) => u.email)
        .sort();
    const invite = (token: string, userIds: string[]) => server.request('POST', `/api/group/${teamId}/members`, { token, body: { userIds } });
    const remove = (token: string, userId: string) => server.request('DELETE', `/api/group/${teamId}/members/${userId}`, { token });

    // Another ADMIN, a MASTER, oneself: refused, and a mixed list adds no one.
    expect(await invite(admin.token, [otherAdmin.user._id])).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect((await invite(admin.token, [master.user._id])).status).toBe(403);
    expect((await invite(admin.token, [admin.user._id])).status).toBe(403);
    expect((await invite(admin.token, [plain.user._id, otherAdmin.user._id])).status).toBe(403);
    expect(await members()).toEqual([]);
    // The same change through PUT /api/user is refused too: one rule for both calls.
    expect((await server.request('PUT', '/api/user', { token: admin.token, body: { _id: otherAdmin.user._id, groups: [teamId] } })).status).toBe(403);

    expect((await invite(admin.token, [plain.user._id])).status).toBe(200);
    expect((await invite(master.token, [otherAdmin.user._id])).status).toBe(200);
    expect(await members()).toEqual(['rules-admin@example.com', 'rules-user@example.com']);
    expect((await remove(admin.token, otherAdmin.user._id)).status).toBe(403);
    expect(await members()).toEqual(['rules-admin@example.com', 'rules-user@example.com']);
    expect((await remove(admin.token, plain.user._id)).body.userCount).toBe(1);
    expect((await remove(master.token, otherAdmin.user._id)).body.userCount).toBe(0);
    expect((await remove(master.token, 'no-such-user')).body.message).toBe('user_not_found');
  });

  it('folder entries are for USERs: refused for administrators, dropped on promotion', async () => {
    const promoted = await signInAs(server, 'to-promote@example.com');
    // An entry naming an ADMIN or the MASTER would change nothing: refused with its own message.
    expect(await grant('/Vault', { users: [{ entity: admin.user._id, access: 1 }] })).toMatchObject({
      status: 400,
      body: { message: 'permission_entry_user_only' },
    });
    expect((await grant('/Vault', { users: [{ entity: master.user._id, permissions: [] }] })).body.message).toBe('permission_entry_user_only');
    expect((await grant('/Vault', { users: [{ entity: admin.user._id, remove: true }] })).status).toBe(200);

    expect((await grant('/Vault', { users: [{ entity: promoted.user._id, permissions: ['READ'] }] })).status).toBe(200);
    expect(await perms(promoted.token, '/Vault')).toEqual(['READ']);
    const entryOf = async (id: string) =>
      ((await server.request('GET', '/api/resource?path=/Vault', { token: master.token })).body[0]?.users ?? []).find(
        (e: { entity: { _id: string } }) => e.entity._id === id,
      );
    expect(await entryOf(promoted.user._id)).toBeDefined();

    expect((await server.request('PUT', '/api/user', { token: admin.token, body: { _id: promoted.user._id, role: 'ADMIN' } })).status).toBe(200);
    expect(await entryOf(promoted.user._id)).toBeUndefined();
    expect(await perms(promoted.token, '/Vault')).toContain('SETTING');
    const tab = await server.request('GET', `/api/user/${promoted.user._id}/permissions`, { token: master.token });
    expect(tab.body.find((f: { path: string }) => f.path === '/Vault')).toMatchObject({ explicit: false, access: 3 });
    // Back to USER: the defaults, not the old entry.
    expect((await server.request('PUT', '/api/user', { token: master.token, body: { _id: promoted.user._id, role: 'USER' } })).status).toBe(200);
    expect(await perms(promoted.token, '/Vault')).toContain('CREATE');
  });

  it('the permission tab of an account shows its access per root folder', async () => {
    const res = await server.request('GET', `/api/user/${user.user._id}/permissions`, { token: admin.token });
    expect(res.status).toBe(200);
    expect(res.body.map((f: { path: string }) => f.path).sort()).toEqual(['/Team', '/Vault']);
    expect(res.body.every((f: { access: number }) => f.access >= 0 && f.access <= 3)).toBe(true);
  });
});
