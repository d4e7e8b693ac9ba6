import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordsOf } from './audit-actions-helpers.js';
import { makeFolder, makeUser } from './factories.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';
import { breakdownOf, uploadAs, versionsOf, versionUrl } from './versions-helpers.js';

describeEachDialect('file versions on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('replacing by upload keeps the old content as a version that downloads, restores and counts in the usage', async () => {
    const root = (await makeFolder(server, master.token)).path;
    const user = await makeUser(server);
    const path = `${root}/계약서.hwp`;
    const v1 = bytesOf(150_000, 'contract-1');
    const v2 = bytesOf(90_000, 'contract-2');
    expect((await upload(server, master.token, root, '계약서.hwp', v1)).status).toBe(200);
    // Without a choice the name is refused, as before.
    expect((await upload(server, user.token, root, '계약서.hwp', v2)).body.message).toBe('file_exists_warning');
    expect((await uploadAs(server, user.token, root, '계약서.hwp', v2, 'replace')).status).toBe(200);

    const listed = await versionsOf(server, master.token, path);
    expect(listed.map((v) => [v.current, v.size, v.hash, v.author?._id])).toEqual([
      [true, v2.length, sha256(v2), user.user._id],
      [false, v1.length, sha256(v1), master.user._id],
    ]);
    expect(await breakdownOf(server, master.token, root)).toMatchObject({ live: v2.length, versions: v1.length, trash: 0, usage: v1.length + v2.length });

    const old = await fetchBytes(server, user.token, versionUrl(path, listed[1]!._id));
    expect(old.status).toBe(200);
    expect(sha256(old.bytes)).toBe(sha256(v1));
    expect(old.headers.get('content-disposition')).toMatch(/^attachment;/);
    const ranged = await fetchBytes(server, user.token, versionUrl(path, listed[1]!._id), { range: 'bytes=10-19' });
    expect(ranged.status).toBe(206);
    expect(ranged.bytes.equals(v1.subarray(10, 20))).toBe(true);
    const downloads = await recordsOf(server, { actions: ['file.download_version'] });
    expect(downloads).toHaveLength(1);
    expect(downloads[0]!.actorId).toBe(user.user._id);

    const restored = await call(server, apiCalls.file_version_restore, { token: user.token, body: { path, id: listed[1]!._id } });
    expect(restored.status).toBe(200);
    expect(restored.body.size).toBe(v1.length);
    expect(sha256((await fetchBytes(server, master.token, `/api/file/download?path=${encodeURIComponent(path)}`)).bytes)).toBe(sha256(v1));
    // The replaced content became a version in turn; the restored one stays in the history.
    const after = await versionsOf(server, master.token, path);
    expect(after.map((v) => v.hash)).toEqual([sha256(v1), sha256(v2), sha256(v1)]);
    expect(await breakdownOf(server, master.token, root)).toMatchObject({ live: v1.length, versions: v1.length + v2.length });
    expect(await recordsOf(server, { actions: ['file.version_restore'] })).toHaveLength(1);
  });

  it('the current version cannot be deleted; deleting another needs DELETE and gives its bytes back', async () => {
    const root = (await makeFolder(server, master.token)).path;
    const user = await makeUser(server);
    const path = `${root}/메모.txt`;
    expect((await upload(server, master.token, root, '메모.txt', Buffer.from('첫 번째'))).status).toBe(200);
    expect((await uploadAs(server, master.token, root, '메모.txt', Buffer.from('두 번째 내용'), 'replace')).status).toBe(200);
    const [current, old] = await versionsOf(server, master.token, path);
    const before = await breakdownOf(server, master.token, root);

    const refused = await callRefused(server, apiCalls.file_version_delete, { token: master.token, body: { path, id: current!._id } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('version_current_undeletable');
    // A USER holds no DELETE by default.
    expect((await callRefused(server, apiCalls.file_version_delete, { token: user.token, body: { path, id: old!._id } })).status).toBe(403);
    expect(await versionsOf(server, master.token, path)).toHaveLength(2);

    expect((await call(server, apiCalls.file_version_delete, { token: master.token, body: { path, id: old!._id } })).status).toBe(204);
    expect((await versionsOf(server, master.token, path)).map((v) => v.current)).toEqual([true]);
    expect(await breakdownOf(server, master.token, root)).toMatchObject({ versions: before.versions - old!.size, usage: before.usage - old!.size });
    expect((await callRefused(server, apiCalls.file_version_delete, { token: master.token, body: { path, id: old!._id } })).body.message).toBe(
      'version_not_found',
    );
    expect(await recordsOf(server, { actions: ['file.version_delete'] })).toHaveLength(1);
  });

  it('a version of another file is not found through this one', async () => {
    const root = (await makeFolder(server, master.token)).path;
    expect((await upload(server, master.token, root, 'a.txt', Buffer.from('a1'))).status).toBe(200);
    expect((await uploadAs(server, master.token, root, 'a.txt', Buffer.from('a2'), 'replace')).status).toBe(200);
    expect((await upload(server, master.token, root, 'b.txt', Buffer.from('b1'))).status).toBe(200);
    const [, aOld] = await versionsOf(server, master.token, `${root}/a.txt`);
    const res = await fetchBytes(server, master.token, versionUrl(`${root}/b.txt`, aOld!._id));
    expect(res.status).toBe(404);
    const restore = await callRefused(server, apiCalls.file_version_restore, { token: master.token, body: { path: `${root}/b.txt`, id: aOld!._id } });
    expect(restore.body.message).toBe('version_not_found');
  });

  it('an incoming webhook upload over an existing file keeps the old content as a version', async () => {
    const root = (await makeFolder(server, master.token)).path;
    const made = await call(server, apiCalls.webhook_create, {
      token: master.token,
      body: { token: 'scanner-v', accessToken: 'scanner-secret-0123456789', path: root },
    });
    expect(made.status).toBe(200);
    const scan = async (text: string) => {
      const form = new FormData();
      form.append('file', new Blob([Buffer.from(text)]), '스캔.pdf');
      const res = await call(server, apiCalls.webhook_incoming_call, { token: 'scanner-secret-0123456789', params: { token: 'scanner-v' }, body: form });
      return res.status;
    };
    expect(await scan('첫 스캔')).toBe(200);
    expect(await scan('다시 스캔')).toBe(200);
    const listed = await versionsOf(server, master.token, `${root}/스캔.pdf`);
    expect(listed.map((v) => v.hash)).toEqual([sha256(Buffer.from('다시 스캔')), sha256(Buffer.from('첫 스캔'))]);
  });

  it('retention: administrators set it (bad input refused), a root folder overrides it, the prune applies it', async () => {
    const root = (await makeFolder(server, master.token)).path;
    const user = await makeUser(server);
    expect((await call(server, apiCalls.version_setting, { token: master.token })).body).toEqual({ maxVersions: 10, maxAgeDays: 30 });
    expect((await callRefused(server, apiCalls.version_setting, { token: user.token })).status).toBe(403);
    for (const bad of [
      { maxVersions: -1, maxAgeDays: 30 },
      { maxVersions: 2.5, maxAgeDays: 30 },
      { maxVersions: 3, maxAgeDays: 0 },
    ]) {
      const res = await callRefused(server, apiCalls.version_setting_update, { token: master.token, body: bad });
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('version_settings_invalid');
    }
    await call(server, apiCalls.version_setting_update, { token: master.token, body: { maxVersions: 3, maxAgeDays: null } });

    const other = (await makeFolder(server, master.token)).path;
    const set = await call(server, apiCalls.root_versions_update, { token: master.token, body: { path: other, maxVersions: 1, maxAgeDays: null } });
    expect(set.body).toEqual({ path: other, maxVersions: 1, maxAgeDays: null, effective: { maxVersions: 1, maxAgeDays: null } });
    expect(
      (await callRefused(server, apiCalls.root_versions_update, { token: user.token, body: { path: other, maxVersions: 5, maxAgeDays: null } })).status,
    ).toBe(403);

    // Five replaces: the global policy keeps 3 versions, the root's own keeps 1, as each replace happens.
    for (const folder of [root, other]) {
      for (let i = 0; i < 6; i++) expect((await uploadAs(server, master.token, folder, 'r.txt', Buffer.from(`내용 ${i}`), 'replace')).status).toBe(200);
    }
    expect(await versionsOf(server, master.token, `${root}/r.txt`)).toHaveLength(4);
    expect(await versionsOf(server, master.token, `${other}/r.txt`)).toHaveLength(2);
    expect((await breakdownOf(server, master.token, other)).versions).toBe(Buffer.byteLength('내용 4'));

    // Lowered later: the housekeeping prune takes the oldest past the count, and those past the age.
    await call(server, apiCalls.version_setting_update, { token: master.token, body: { maxVersions: 1, maxAgeDays: null } });
    expect(await server.app.versions.prune()).toBeGreaterThanOrEqual(2);
    expect((await versionsOf(server, master.token, `${root}/r.txt`)).map((v) => v.current)).toEqual([true, false]);
    await call(server, apiCalls.version_setting_update, { token: master.token, body: { maxVersions: null, maxAgeDays: 1 } });
    await server.app.versions.prune(new Date(Date.now() + 2 * 86_400_000));
    expect(await versionsOf(server, master.token, `${root}/r.txt`)).toHaveLength(1);
    expect((await breakdownOf(server, master.token, root)).versions).toBe(0);
    await call(server, apiCalls.version_setting_update, { token: master.token, body: { maxVersions: 10, maxAgeDays: 30 } });
  });
});
