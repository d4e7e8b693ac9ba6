import { apiCalls, type UpdateResourceRequest, type UpdateSettingRequest } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
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
    for (const name of ['Team', 'Vault']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Sub', path: '/Team' } });
    await addFile(server, '/Team/Sub', 'deep.txt', 10, master.user._id);
  });
  afterAll(async () => {
    await server?.close();
  });

  const perms = async (token: string, path: string) => (await call(server, apiCalls.resource_permission, { token, query: { path } })).body.sort();
  const group = async (name: string) =>
    (await call(server, apiCalls.group_create, { token: master.token, body: { name, description: `${name} team` } })).body._id;
  const join = (groupId: string, userIds: string[]) =>
    call(server, apiCalls.group_members_add, { token: master.token, params: { id: groupId }, body: { userIds } });
  type Entries = Omit<UpdateResourceRequest, 'path'>;
  const grant = (path: string, body: Entries, token = master.token) => call(server, apiCalls.resource_update, { token, body: { path, ...body } });
  const grantRefused = (path: string, body: Entries, token = master.token) => callRefused(server, apiCalls.resource_update, { token, body: { path, ...body } });
  const setDefaults = (permission: UpdateSettingRequest['permission'], token = master.token) =>
    call(server, apiCalls.setting_update, { token, body: { _id: 'settings', permission } });
  const setDefaultsRefused = (permission: UpdateSettingRequest['permission'], token: string) =>
    callRefused(server, apiCalls.setting_update, { token, body: { _id: 'settings', permission } });

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
    expect((await callRefused(server, apiCalls.file_list, { token: u.token, query: { path: '/Team/Sub' } })).status).toBe(403);
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
    expect((await call(server, apiCalls.file_list, { token: reader.token, query: { path: '/Vault' } })).body.items.map((i) => i.name)).toEqual(['plan.txt']);
    expect((await call(server, apiCalls.file_download, { token: reader.token, query: { path: '/Vault/plan.txt' } })).status).toBe(200);
    expect((await callRefused(server, apiCalls.file_preview, { token: reader.token, query: { path: '/Vault/plan.txt' } })).status).toBe(403);
    expect((await callRefused(server, apiCalls.folder_create, { token: reader.token, body: { name: 'x', path: '/Vault' } })).status).toBe(403);
    expect((await callRefused(server, apiCalls.file_trash, { token: reader.token, body: { paths: ['/Vault/plan.txt'] } })).status).toBe(403);
    expect(
      (await callRefused(server, apiCalls.file_rename, { token: reader.token, body: { path: '/Vault', name: 'plan.txt', newName: 'y.txt' } })).status,
    ).toBe(403);
    // Other users (defaults now empty) see nothing there.
    expect((await callRefused(server, apiCalls.file_list, { token: user.token, query: { path: '/Vault' } })).status).toBe(403);
    await setDefaults({ user: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'] });
  });

  it('editing permissions needs SETTING on the path; unknown entities are refused', async () => {
    const editor = await signInAs(server, 'editor@example.com');
    expect((await grant('/Team', { users: [{ entity: editor.user._id, access: 3 }] }, admin.token)).status).toBe(200);
    // USERs never reach the resource calls (level 2).
    expect((await grantRefused('/Team', { users: [{ entity: editor.user._id, access: 3 }] }, editor.token)).status).toBe(403);
    // An ADMIN whose defaults lack SETTING cannot edit.
    await setDefaults({ admin: ['READ', 'PREVIEW', 'DOWNLOAD'] });
    expect(await grantRefused('/Team', { users: [{ entity: user.user._id, access: 1 }] }, admin.token)).toMatchObject({
      status: 403,
      body: { message: 'no_access_warning' },
    });
    await setDefaults({ admin: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'LOCK', 'UNLOCK', 'TRASH', 'DELETE', 'SETTING'] });
    expect((await grantRefused('/Team', { users: [{ entity: 'no-such-user', access: 1 }] })).body.message).toBe('user_not_found');
    expect((await grantRefused('/Team', { groups: [{ entity: 'no-such-group', access: 1 }] })).body.message).toBe('group_not_found');
    expect((await grantRefused('/Nowhere', { users: [{ entity: user.user._id, access: 1 }] })).status).toBe(404);
  });

  it('lists, updates by id and deletes resources; access levels map to permissions', async () => {
    const list = await call(server, apiCalls.resource_list, { token: admin.token, query: { path: '/Team' } });
    expect(list.status).toBe(200);
    const resource = list.body[0]!;
    expect(resource).toMatchObject({ path: '/Team', folder: true, name: 'Team' });
    const editorEntry = resource.users.find((e) => e.entity.email === 'editor@example.com')!;
    expect(editorEntry.access).toBe(3);
    expect(editorEntry.permissions).toHaveLength(13);
    const updated = await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { _id: resource._id, users: [{ entity: editorEntry.entity._id, access: 2 }] },
    });
    expect(updated.body.users.find((e) => e.entity._id === editorEntry.entity._id)).toMatchObject({ access: 2 });
    expect((await call(server, apiCalls.resource_delete, { token: master.token, params: { id: resource._id } })).status).toBe(200);
    expect((await call(server, apiCalls.resource_list, { token: admin.token, query: { path: '/Team' } })).body).toEqual([]);
    expect((await callRefused(server, apiCalls.resource_delete, { token: master.token, params: { id: resource._id } })).body.message).toBe(
      'resource_not_found',
    );
  });

  it('default permissions: only MASTER changes the admin row; unknown names are dropped', async () => {
    expect((await setDefaultsRefused({ admin: ['READ'] }, admin.token)).status).toBe(403);
    const saved = await setDefaults({ user: ['READ', 'BOGUS', 'DOWNLOAD'] }, admin.token);
    expect(saved.body[0]!.permission.user).toEqual(['READ', 'DOWNLOAD']);
    const read = await call(server, apiCalls.setting, { token: admin.token });
    expect(read.body[0]!.permission.user).toEqual(['READ', 'DOWNLOAD']);
    expect((await setDefaultsRefused({ user: ['READ'] }, user.token)).status).toBe(403);
    await setDefaults({ user: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'] });
  });

  it('the setting (server path, cloud bucket) is not readable by a USER', async () => {
    const refused = await callRefused(server, apiCalls.setting, { token: user.token });
    expect(refused).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect(refused.text).not.toContain('path');
    const read = await call(server, apiCalls.setting, { token: admin.token });
    expect(read.status).toBe(200);
    expect(read.body[0]!.server).toHaveProperty('path');
  });

  it('the default user row never holds DELETE or SETTING, so a USER never becomes a manager by default', async () => {
    const everything = ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'LOCK', 'UNLOCK', 'TRASH', 'DELETE', 'SETTING'];
    const saved = await setDefaults({ user: everything }, admin.token);
    expect(saved.status).toBe(200);
    expect(saved.body[0]!.permission.user).not.toContain('SETTING');
    expect(saved.body[0]!.permission.user).not.toContain('DELETE');
    expect(saved.body[0]!.permission.user).toContain('LOCK');
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
    expect((await call(server, apiCalls.setting, { token: admin.token })).body[0]!.permission.user).not.toContain('SETTING');
    await setDefaults({ user: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'] });
  });

  it('groups: create, edit, invite with a notification, remove a member, delete (not default)', async () => {
    const member = await signInAs(server, 'member@example.com');
    const { socket } = await connect(server.url, { token: member.token });
    try {
      const id = await group('design');
      expect((await callRefused(server, apiCalls.group_create, { token: master.token, body: { name: 'design' } })).body.message).toBe('group_name_duplicate');
      expect((await callRefused(server, apiCalls.group_create, { token: master.token, body: { name: '  ' } })).body.message).toBe('rules_group_name_required');
      const notified = next<{ key: string; params: Record<string, unknown> }>(socket, 'notification');
      const invited = await join(id, [member.user._id]);
      expect(invited.body.userCount).toBe(1);
      expect(await notified).toMatchObject({ key: 'note_group_added', params: { group: expect.stringContaining('design') } });
      const edited = await call(server, apiCalls.group_update, { token: admin.token, body: { _id: id, name: 'design-team', description: 'UI' } });
      expect(edited.body).toMatchObject({ name: 'design-team', description: 'UI' });
      await grant('/Team', { groups: [{ entity: id, access: 1 }] });
      const listed = (await call(server, apiCalls.group_list, { token: admin.token })).body.find((g) => g._id === id)!;
      expect(listed.users.map((u) => u.email)).toEqual(['member@example.com']);
      expect(listed.permissions.find((p) => p.path === '/Team')).toMatchObject({ access: 1, explicit: true });
      expect((await call(server, apiCalls.group_info, { token: member.token })).body.map((g) => g.name)).toContain('design-team');
      expect((await call(server, apiCalls.group_member_remove, { token: master.token, params: { id, userId: member.user._id } })).body.userCount).toBe(0);
      await join(id, [member.user._id]);
      expect((await call(server, apiCalls.group_delete, { token: master.token, params: { id } })).status).toBe(200);
      const account = (await call(server, apiCalls.user_list, { token: master.token, query: { _id: member.user._id } })).body[0]!;
      expect(account.groups.map((g) => g._id)).not.toContain(id);
      expect((await call(server, apiCalls.resource_list, { token: master.token, query: { path: '/Team' } })).body[0]?.groups ?? []).not.toContainEqual(
        expect.objectContaining({ entity: expect.objectContaining({ _id: id }) }),
      );
      const def = (await call(server, apiCalls.group_info, { token: master.token })).body.find((g) => g.name === 'default')!;
      expect((await callRefused(server, apiCalls.group_delete, { token: master.token, params: { id: def._id } })).body.message).toBe(
        'default_group_undeletable',
      );
      expect((await callRefused(server, apiCalls.group_create, { token: user.token, body: { name: 'mine' } })).status).toBe(403);
    } finally {
      socket.close();
    }
  });

  it('the default group keeps its name, with its own message; its description can change', async () => {
    const def = (await call(server, apiCalls.group_info, { token: master.token })).body.find((g) => g.name === 'default')!;
    const renamed = await callRefused(server, apiCalls.group_update, {
      token: master.token,
      body: { _id: def._id, name: 'everyone', description: 'All accounts' },
    });
    expect(renamed).toMatchObject({ status: 409, body: { message: 'default_group_unrenamable' } });
    expect((await call(server, apiCalls.group_info, { token: master.token })).body.map((g) => g.name)).toContain('default');
    const described = await call(server, apiCalls.group_update, { token: admin.token, body: { _id: def._id, name: 'default', description: 'All accounts' } });
    expect(described.body).toMatchObject({ name: 'default', description: 'All accounts' });
  });

  it('group members follow the account rules: a level-2 admin invites and removes USERs only', async () => {
    const teamId = await group('rules-team');
    const plain = await signInAs(server, 'rules-user@example.com');
    const otherAdmin = await signInAs(server, 'rules-admin@example.com', 'ADMIN');
    const members = async () =>
      (await call(server, apiCalls.group_list, { token: master.token })).body
        .find((g) => g._id === teamId)!
        .users.map((u) => u.email)
        .sort();
    const invite = (token: string, userIds: string[]) => call(server, apiCalls.group_members_add, { token, params: { id: teamId }, body: { userIds } });
    const inviteRefused = (token: string, userIds: string[]) =>
      callRefused(server, apiCalls.group_members_add, { token, params: { id: teamId }, body: { userIds } });
    const remove = (token: string, userId: string) => call(server, apiCalls.group_member_remove, { token, params: { id: teamId, userId } });
    const removeRefused = (token: string, userId: string) => callRefused(server, apiCalls.group_member_remove, { token, params: { id: teamId, userId } });

    // Another ADMIN, a MASTER, oneself: refused, and a mixed list adds no one.
    expect(await inviteRefused(admin.token, [otherAdmin.user._id])).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect((await inviteRefused(admin.token, [master.user._id])).status).toBe(403);
    expect((await inviteRefused(admin.token, [admin.user._id])).status).toBe(403);
    expect((await inviteRefused(admin.token, [plain.user._id, otherAdmin.user._id])).status).toBe(403);
    expect(await members()).toEqual([]);
    // The same change through PUT /api/user is refused too: one rule for both calls.
    expect((await callRefused(server, apiCalls.user_update, { token: admin.token, body: { _id: otherAdmin.user._id, groups: [teamId] } })).status).toBe(403);

    expect((await invite(admin.token, [plain.user._id])).status).toBe(200);
    expect((await invite(master.token, [otherAdmin.user._id])).status).toBe(200);
    expect(await members()).toEqual(['rules-admin@example.com', 'rules-user@example.com']);
    expect((await removeRefused(admin.token, otherAdmin.user._id)).status).toBe(403);
    expect(await members()).toEqual(['rules-admin@example.com', 'rules-user@example.com']);
    expect((await remove(admin.token, plain.user._id)).body.userCount).toBe(1);
    expect((await remove(master.token, otherAdmin.user._id)).body.userCount).toBe(0);
    expect((await removeRefused(master.token, 'no-such-user')).body.message).toBe('user_not_found');
  });

  it('folder entries are for USERs: refused for administrators, dropped on promotion', async () => {
    const promoted = await signInAs(server, 'to-promote@example.com');
    // An entry naming an ADMIN or the MASTER would change nothing: refused with its own message.
    expect(await grantRefused('/Vault', { users: [{ entity: admin.user._id, access: 1 }] })).toMatchObject({
      status: 400,
      body: { message: 'permission_entry_user_only' },
    });
    expect((await grantRefused('/Vault', { users: [{ entity: master.user._id, permissions: [] }] })).body.message).toBe('permission_entry_user_only');
    expect((await grant('/Vault', { users: [{ entity: admin.user._id, remove: true }] })).status).toBe(200);

    expect((await grant('/Vault', { users: [{ entity: promoted.user._id, permissions: ['READ'] }] })).status).toBe(200);
    expect(await perms(promoted.token, '/Vault')).toEqual(['READ']);
    const entryOf = async (id: string) =>
      ((await call(server, apiCalls.resource_list, { token: master.token, query: { path: '/Vault' } })).body[0]?.users ?? []).find((e) => e.entity._id === id);
    expect(await entryOf(promoted.user._id)).toBeDefined();

    expect((await call(server, apiCalls.user_update, { token: admin.token, body: { _id: promoted.user._id, role: 'ADMIN' } })).status).toBe(200);
    expect(await entryOf(promoted.user._id)).toBeUndefined();
    expect(await perms(promoted.token, '/Vault')).toContain('SETTING');
    const tab = await call(server, apiCalls.user_permissions, { token: master.token, params: { id: promoted.user._id } });
    expect(tab.body.find((f) => f.path === '/Vault')).toMatchObject({ explicit: false, access: 3 });
    // Back to USER: the defaults, not the old entry.
    expect((await call(server, apiCalls.user_update, { token: master.token, body: { _id: promoted.user._id, role: 'USER' } })).status).toBe(200);
    expect(await perms(promoted.token, '/Vault')).toContain('CREATE');
  });

  it('the permission tab of an account shows its access per root folder', async () => {
    const res = await call(server, apiCalls.user_permissions, { token: admin.token, params: { id: user.user._id } });
    expect(res.status).toBe(200);
    expect(res.body.map((f) => f.path).sort()).toEqual(['/Team', '/Vault']);
    expect(res.body.every((f) => f.access >= 0 && f.access <= 3)).toBe(true);
  });
});
