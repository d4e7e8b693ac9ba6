import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lastSeq, recordsOf } from './audit-actions-helpers.js';
import { basic, dav, davPath, makeAppPassword } from './dav-helpers.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, upload } from './transfer-helpers.js';

// File actions in the audit trail: who did what to which path, from where, allowed or refused.
describeEachDialect('audit records of file actions on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  const agent = { 'user-agent': 'AuditTest/1.0' };

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'worker@example.com');
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '문서', path: '/' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** The credentials (the worker's unless told) and the client's agent, as each call of these tests sends them. */
  const client = (token = user.token) => ({ token, headers: agent });

  it('records upload, mkdir, rename, move, copy, trash, restore and purge with actor, target, outcome and client', async () => {
    const from = await lastSeq(server);
    expect((await upload(server, user.token, '/문서', '보고서.txt', bytesOf(1000, 'report'))).status).toBe(200);
    expect((await call(server, apiCalls.folder_create, { ...client(), body: { name: '보관함', path: '/문서' } })).status).toBe(200);
    expect((await call(server, apiCalls.file_rename, { ...client(), body: { path: '/문서', name: '보고서.txt', newName: '최종.txt' } })).status).toBe(200);
    expect(
      (await call(server, apiCalls.file_copy, { ...client(), body: { path: '/문서', name: '최종.txt', newPath: '/문서/보관함', onConflict: 'error' } })).status,
    ).toBe(200);
    expect(
      (await call(server, apiCalls.file_move, { ...client(), body: { path: '/문서', name: '최종.txt', newPath: '/문서/보관함', onConflict: 'keep-both' } }))
        .status,
    ).toBe(200);
    const trashed = await call(server, apiCalls.file_trash, { ...client(), body: { paths: ['/문서/보관함/최종 (1).txt'] } });
    expect(trashed.status).toBe(200);
    const [trashId] = trashed.body.ids;
    expect((await call(server, apiCalls.trash_restore, { ...client(), body: { ids: [trashId!] } })).status).toBe(200);
    await call(server, apiCalls.file_trash, { ...client(), body: { paths: ['/문서/보관함/최종 (1).txt'] } });
    expect((await call(server, apiCalls.trash_delete, { ...client(master.token), params: { id: trashId! } })).status).toBe(200);

    const records = await recordsOf(server, { afterSeq: from });
    const mine = records.filter((r) => r.actorAccountId === user.user._id);
    expect(mine.map((r) => [r.action, r.targetPath])).toEqual([
      ['file.upload', '/문서/보고서.txt'],
      ['file.mkdir', '/문서/보관함'],
      ['file.rename', '/문서/보고서.txt'],
      ['file.copy', '/문서/최종.txt'],
      ['file.move', '/문서/최종.txt'],
      ['file.trash', '/문서/보관함/최종 (1).txt'],
      ['file.restore', '/문서/보관함/최종 (1).txt'],
      ['file.trash', '/문서/보관함/최종 (1).txt'],
    ]);
    for (const record of mine) {
      expect(record).toMatchObject({ outcome: 'allowed', reason: null, actorKind: 'account', actorId: user.user._id, targetKind: 'node', ip: '127.0.0.1' });
      expect(record.targetId).toBeTruthy();
    }
    expect(mine.filter((r) => r.action !== 'file.upload').every((r) => r.userAgent === 'AuditTest/1.0')).toBe(true);
    expect(mine[2]!.params).toMatchObject({ to: '/문서/최종.txt' });
    expect(mine[4]!.params).toMatchObject({ to: '/문서/보관함/최종 (1).txt' });
    // The file keeps its node id across rename and move: one id to follow it by.
    expect(new Set([mine[0]!.targetId, mine[2]!.targetId, mine[4]!.targetId]).size).toBe(1);
    const purge = records.find((r) => r.action === 'file.purge')!;
    expect(purge).toMatchObject({ actorAccountId: master.user._id, targetId: trashId, targetPath: '/문서/보관함/최종 (1).txt', outcome: 'allowed' });
  });

  it('records a preview as file.view with its path, and a download as file.download, before the bytes', async () => {
    expect((await upload(server, master.token, '/문서', 'view.txt', bytesOf(300, 'view'))).status).toBe(200);
    const from = await lastSeq(server);
    expect((await fetchBytes(server, user.token, `/api/file/preview?path=${encodeURIComponent('/문서/view.txt')}`)).status).toBe(200);
    expect((await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/문서/view.txt')}`)).status).toBe(200);
    // A folder goes as a zip: one `file.download_zip` record per item chosen.
    expect(
      (await fetchBytes(server, user.token, `/api/file/download?paths=${encodeURIComponent('/문서/view.txt')}&paths=${encodeURIComponent('/문서/보관함')}`))
        .status,
    ).toBe(200);
    // A resumed range and a 304 are no new downloads.
    expect((await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/문서/view.txt')}`, { range: 'bytes=10-20' })).status).toBe(
      206,
    );

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.targetPath])).toEqual([
      ['file.view', '/문서/view.txt'],
      ['file.download', '/문서/view.txt'],
      ['file.download_zip', '/문서/view.txt'],
      ['file.download_zip', '/문서/보관함'],
    ]);
    expect(records[0]).toMatchObject({ actorAccountId: user.user._id, outcome: 'allowed', params: { size: 300 } });
    expect(records[2]!.params).toMatchObject({ zip: 'download.zip', items: 2 });
  });

  it('records a refused download, preview and lock with the reason key and path; a missing path is not recorded', async () => {
    expect((await upload(server, master.token, '/문서', 'secret.txt', bytesOf(50, 'secret'))).status).toBe(200);
    const file = await server.app.fileTree.resolve('/문서/secret.txt');
    expect(
      (
        await call(server, apiCalls.resource_update, {
          token: master.token,
          body: { path: '/문서/secret.txt', users: [{ entity: user.user._id, permissions: ['READ'] }] },
        })
      ).status,
    ).toBe(200);
    const from = await lastSeq(server);

    expect((await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/문서/secret.txt')}`)).status).toBe(403);
    expect((await fetchBytes(server, user.token, `/api/file/preview?path=${encodeURIComponent('/문서/secret.txt')}`)).status).toBe(403);
    expect((await callRefused(server, apiCalls.file_lock, { ...client(), body: { path: '/문서/보관함', lock: true } })).status).toBe(403);
    expect((await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/문서/없는 파일.txt')}`)).status).toBe(404);
    expect(
      (
        await call(server, apiCalls.resource_update, {
          token: master.token,
          body: { path: '/문서/보관함', users: [{ entity: user.user._id, permissions: ['READ'] }] },
        })
      ).status,
    ).toBe(200);
    const fromUpload = await lastSeq(server);
    expect((await upload(server, user.token, '/문서/보관함', 'not-allowed.txt', bytesOf(10, 'nope'))).status).toBe(403);

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.filter((r) => r.seq <= fromUpload && r.action !== 'permission.change').map((r) => [r.action, r.outcome, r.reason, r.targetPath])).toEqual([
      ['file.download', 'refused', 'no_access_warning', '/문서/secret.txt'],
      ['file.view', 'refused', 'no_access_warning', '/문서/secret.txt'],
      ['file.lock', 'refused', 'no_access_warning', '/문서/보관함'],
    ]);
    // An upload refused at its folder: one record, with the folder's path and the permission it lacks.
    // A root folder is trashed by administrators only: the refusal is recorded too.
    expect((await callRefused(server, apiCalls.file_trash, { ...client(), body: { paths: ['/문서'] } })).status).toBe(403);
    expect((await recordsOf(server, { afterSeq: fromUpload })).map((r) => [r.action, r.outcome, r.reason, r.targetPath, r.params.permission])).toEqual([
      ['file.upload', 'refused', 'no_access_warning', '/문서/보관함', 'CREATE'],
      ['file.trash', 'refused', 'no_access_warning', '/문서', 'TRASH'],
    ]);
    expect(records[0]).toMatchObject({ actorAccountId: user.user._id, targetId: file!.id, params: { permission: 'DOWNLOAD' }, ip: '127.0.0.1' });
  });

  it('records a download refused by a locked folder (no approved request) as a refusal', async () => {
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '기밀', path: '/문서' } })).status).toBe(200);
    expect((await upload(server, master.token, '/문서/기밀', 'plan.txt', bytesOf(20, 'plan'))).status).toBe(200);
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/문서/기밀', lock: true } })).status).toBe(200);
    const from = await lastSeq(server);
    const refused = await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/문서/기밀/plan.txt')}`);
    expect(refused.status).toBe(403);
    // Copying the bytes out of the locked folder is refused and recorded the same way, even for the MASTER.
    const copyOut = await callRefused(server, apiCalls.file_copy, {
      ...client(master.token),
      body: { path: '/문서/기밀', name: 'plan.txt', newPath: '/문서', onConflict: 'keep-both' },
    });
    expect(copyOut.status).toBe(403);
    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.outcome, r.reason, r.targetPath, r.actorAccountId])).toEqual([
      ['file.download', 'refused', 'secure_approval_required', '/문서/기밀/plan.txt', user.user._id],
      ['file.copy', 'refused', 'secure_approval_required', '/문서/기밀/plan.txt', master.user._id],
    ]);
  });

  it('records WebDAV uploads and downloads, and a wrong app password, with the app password as actor', async () => {
    const auth = basic('worker@example.com', await makeAppPassword(server, user.token));
    const from = await lastSeq(server);
    expect((await dav(server, 'PUT', davPath('/문서/webdav.txt'), { auth, body: Buffer.from('from a client') })).status).toBe(201);
    expect((await dav(server, 'GET', davPath('/문서/webdav.txt'), { auth })).status).toBe(200);
    expect((await dav(server, 'GET', davPath('/문서/webdav.txt'), { auth: basic('worker@example.com', 'aaaa-bbbb-cccc-dddd') })).status).toBe(401);

    const records = await recordsOf(server, { afterSeq: from, actions: ['file.upload', 'file.download', 'auth.sign_in_failed'] });
    expect(records.map((r) => [r.action, r.outcome, r.actorKind, r.actorAccountId, r.targetPath])).toEqual([
      ['file.upload', 'allowed', 'app_password', user.user._id, '/문서/webdav.txt'],
      ['file.download', 'allowed', 'app_password', user.user._id, '/문서/webdav.txt'],
      ['auth.sign_in_failed', 'refused', 'app_password', null, null],
    ]);
    expect(records[2]).toMatchObject({ reason: 'login_failure', params: { method: 'app_password', email: 'worker@example.com' } });
  });

  it('a burst of 1,000 downloads records 1,000 rows', async () => {
    expect((await upload(server, master.token, '/문서', 'burst.txt', bytesOf(10, 'burst'))).status).toBe(200);
    const from = await lastSeq(server);
    const url = `/api/file/download?path=${encodeURIComponent('/문서/burst.txt')}`;
    const statuses: number[] = [];
    // 1,000 downloads, 50 at a time (the client's sockets are the limit, not the server's).
    for (let wave = 0; wave < 20; wave++) {
      statuses.push(...(await Promise.all(Array.from({ length: 50 }, () => fetchBytes(server, user.token, url).then((r) => r.status)))));
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    const records = await recordsOf(server, { afterSeq: from, actions: ['file.download'] });
    expect(records).toHaveLength(1000);
    expect(new Set(records.map((r) => r.seq)).size).toBe(1000);
  });
});
