import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { AccessService } from '../src/modules/files/access.service.js';
import type { FileTreeService } from '../src/modules/files/file-tree.js';
import { SettingsRepo } from '../src/modules/settings/settings.repo.js';
import { TrashRetentionService } from '../src/modules/trash/trash-retention.js';
import { TrashService } from '../src/modules/trash/trash.service.js';
import { UsersRepo } from '../src/modules/users/users.repo.js';
import { recordsOf } from './audit-actions-helpers.js';
import { addFile, refCount, signInAs, usageOf } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('trash administration on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The rule as the housekeeping job runs it, over the same database. */
  function retentionRule(): TrashRetentionService {
    const { db, audit } = server.app;
    // The retention rule restores nothing: no WebDAV lock stands in its way.
    const noLocks = { assertCanWrite: async () => {}, releaseUnder: async () => {} };
    const trash = new TrashService(server.app.fileTree as FileTreeService, server.app.fileAccess as AccessService, new UsersRepo(db), audit, noLocks);
    return new TrashRetentionService(new SettingsRepo(db), trash, audit);
  }

  const retention = (token: string) => call(server, apiCalls.trash_retention, { token });
  const setRetention = (token: string, days: number | null) => call(server, apiCalls.trash_retention_update, { token, body: { days } });
  const setRetentionRefused = (token: string, days: number | null) => callRefused(server, apiCalls.trash_retention_update, { token, body: { days } });
  const trash = (paths: string[], token = user.token) => call(server, apiCalls.file_trash, { token, body: { paths } });

  it('keeps trash until deleted by hand by default', async () => {
    expect(await retention(master.token)).toMatchObject({ status: 200, body: { days: null } });
    expect(await retentionRule().apply()).toBe(0);
  });

  it('lets only administrators read or change the retention', async () => {
    expect(await callRefused(server, apiCalls.trash_retention, { token: user.token })).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect(await setRetentionRefused(user.token, 1)).toMatchObject({ status: 403 });
    expect((await callRefused(server, apiCalls.trash_retention)).status).toBe(401);
    expect(await retention(master.token)).toMatchObject({ body: { days: null } });
    // Purging stays with administrators too.
    expect((await callRefused(server, apiCalls.trash_empty, { token: user.token })).status).toBe(403);
    expect((await callRefused(server, apiCalls.trash_delete, { token: user.token, params: { id: 'any-id' } })).status).toBe(403);
  });

  it('refuses a retention that is not a whole number of days from 1 to 3650', async () => {
    for (const days of [0, -3, 1.5, 3651]) {
      expect(await setRetentionRefused(admin.token, days), String(days)).toMatchObject({ status: 400, body: { message: 'trash_retention_invalid' } });
    }
    // Raw on purpose: days as text, and no days at all, are input the contract's type does not allow.
    const asText = await server.request('PUT', '/api/trash/retention', { token: admin.token, body: { days: '7' } });
    expect(asText, '7').toMatchObject({ status: 400, body: { message: 'trash_retention_invalid' } });
    expect(await server.request('PUT', '/api/trash/retention', { token: admin.token, body: {} })).toMatchObject({ status: 400 });
    expect(await retention(admin.token)).toMatchObject({ body: { days: null } });
  });

  it('deletes for good what was trashed longer ago than the retention, and nothing else', async () => {
    await addFile(server, '/Team', 'old.txt', 100, user.user._id, 'retention-old');
    await addFile(server, '/Team', 'new.txt', 30, user.user._id, 'retention-new');
    const trashed = await trash(['/Team/old.txt', '/Team/new.txt']);
    expect(trashed.status).toBe(200);
    const listed = (await call(server, apiCalls.trash_list, { token: master.token })).body.items;
    const oldId = listed.find((i) => i.name === 'old.txt')!._id;
    const newId = listed.find((i) => i.name === 'new.txt')!._id;
    const tenDaysAgo = new Date(Date.now() - 10 * 86_400_000).toISOString();
    await server.app.db.updateTable('nodes').set({ trashed_at: tenDaysAgo }).where('id', '=', oldId).execute();
    const usageBefore = await usageOf(server, master.token, '/Team');

    expect(await setRetention(admin.token, 7)).toMatchObject({ status: 200, body: { days: 7 } });
    expect(await retention(master.token)).toMatchObject({ body: { days: 7 } });
    expect(await retentionRule().apply()).toBe(1);

    const left = await call(server, apiCalls.trash_list, { token: master.token });
    expect(left.body.items.map((i) => i._id)).toEqual([newId]);
    expect(await usageOf(server, master.token, '/Team')).toBe(usageBefore - 100);
    expect(await refCount(server, 'retention-old')).toBe(0);
    expect(await refCount(server, 'retention-new')).toBe(1);
    const records = await recordsOf(server, { actions: ['settings.change', 'file.purge'] });
    expect(records).toContainEqual(expect.objectContaining({ action: 'settings.change', actorAccountId: admin.user._id, params: { from: null, to: 7 } }));
    // The retention job acts as the server, one record per item, with the path it had.
    expect(records).toContainEqual(
      expect.objectContaining({
        action: 'file.purge',
        actorKind: 'system',
        targetId: oldId,
        targetPath: '/Team/old.txt',
        params: expect.objectContaining({ retentionDays: 7 }),
      }),
    );

    // Turned off again: nothing more goes, however old.
    expect(await setRetention(admin.token, null)).toMatchObject({ status: 200, body: { days: null } });
    await server.app.db.updateTable('nodes').set({ trashed_at: tenDaysAgo }).where('id', '=', newId).execute();
    expect(await retentionRule().apply()).toBe(0);
    expect((await call(server, apiCalls.trash_list, { token: master.token })).body.total).toBe(1);
  });
});
