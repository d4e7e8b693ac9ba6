import fs from 'node:fs';
import path from 'node:path';
import { apiCalls, PERMISSION_TYPES } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { PERMISSION_SETTING } from '../src/modules/files/access.service.js';
import { TransferJobs } from '../src/modules/transfer/transfer.jobs.js';
import { TransferRepo } from '../src/modules/transfer/transfer.repo.js';
import { blobKeyOf } from '../src/storage/blob-store.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';
import { breakdownOf, uploadAs, versionsOf, versionUrl } from './versions-helpers.js';

describeEachDialect('versions refused and under way on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  const root = '/가드';

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'reader@example.com');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: root.slice(1), path: '/' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A file at `${root}/name` with one earlier version; answers its versions, current first. */
  const twoVersions = async (folder: string, name: string, first: Buffer, second: Buffer) => {
    expect((await upload(server, master.token, folder, name, first)).status).toBe(200);
    expect((await uploadAs(server, master.token, folder, name, second, 'replace')).status).toBe(200);
    return versionsOf(server, master.token, `${folder}/${name}`);
  };

  it('a USER holding READ and DOWNLOAD but not UPDATE may list and download versions, not restore one (403)', async () => {
    const file = `${root}/보고서.docx`;
    const [current, old] = await twoVersions(root, '보고서.docx', Buffer.from('초안'), Buffer.from('최종본'));
    await server.app.db.deleteFrom('settings').where('key', '=', PERMISSION_SETTING).execute();
    const value = JSON.stringify({ user: ['READ', 'PREVIEW', 'DOWNLOAD'], admin: [...PERMISSION_TYPES] });
    await server.app.db.insertInto('settings').values({ key: PERMISSION_SETTING, value, updated_at: new Date().toISOString() }).execute();
    try {
      expect((await versionsOf(server, user.token, file)).map((v) => v._id)).toEqual([current!._id, old!._id]);
      expect((await fetchBytes(server, user.token, versionUrl(file, old!._id))).bytes.toString()).toBe('초안');
      const res = await callRefused(server, apiCalls.file_version_restore, { token: user.token, body: { path: file, id: old!._id } });
      expect(res.status).toBe(403);
      expect(res.body.message).toBe('no_access_warning');
      expect((await fetchBytes(server, master.token, `/api/file/download?path=${encodeURIComponent(file)}`)).bytes.toString()).toBe('최종본');
      // Nor may it replace the file by uploading over it.
      expect((await uploadAs(server, user.token, root, '보고서.docx', Buffer.from('몰래'), 'replace')).status).toBe(403);
    } finally {
      await server.app.db.deleteFrom('settings').where('key', '=', PERMISSION_SETTING).execute();
    }
  });

  it('restoring a version into a root over its volume limit is 413 and changes nothing', async () => {
    const small = '/작은폴더';
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: small.slice(1), path: '/' } });
    const [, old] = await twoVersions(small, 'big.bin', bytesOf(40_000, 'big-1'), bytesOf(1000, 'big-2'));
    const before = await breakdownOf(server, master.token, small);
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: small, volume: before.usage + 1000 } });
    const res = await callRefused(server, apiCalls.file_version_restore, { token: master.token, body: { path: `${small}/big.bin`, id: old!._id } });
    expect(res.status).toBe(413);
    expect(res.body.message).toBe('volume_exceeded_warning');
    expect(await breakdownOf(server, master.token, small)).toEqual(before);
    const after = await versionsOf(server, master.token, `${small}/big.bin`);
    expect(after.map((v) => v.hash)).toEqual([sha256(bytesOf(1000, 'big-2')), sha256(bytesOf(40_000, 'big-1'))]);
  });

  it('a version of a file in a secure folder needs an approval, as the file does', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: '기밀', path: root } });
    const [, old] = await twoVersions(`${root}/기밀`, 'plan.txt', Buffer.from('v1'), Buffer.from('v2'));
    await call(server, apiCalls.file_lock, { token: master.token, body: { path: `${root}/기밀`, lock: true } });
    for (const token of [user.token, master.token]) {
      const res = await fetchBytes(server, token, versionUrl(`${root}/기밀/plan.txt`, old!._id));
      expect(res.status).toBe(403);
      expect(JSON.parse(res.bytes.toString()).message).toBe('secure_approval_required');
    }
    const asked = await call(server, apiCalls.request_create, {
      token: user.token,
      body: { type: 'download', reason: '검토', paths: [`${root}/기밀/plan.txt`] },
    });
    await call(server, apiCalls.request_update, { token: master.token, params: { id: asked.body._id }, body: { action: 'approve' } });
    expect((await fetchBytes(server, user.token, versionUrl(`${root}/기밀/plan.txt`, old!._id))).bytes.toString()).toBe('v1');
  });

  it('pruning a version while it is being downloaded lets the download finish; its blob goes afterwards', async () => {
    const data = bytesOf(6 * 1024 * 1024, 'long-version');
    const [, old] = await twoVersions(root, 'long.bin', data, Buffer.from('짧은 새 내용'));
    const jobs = new TransferJobs(new TransferRepo(server.app.db), server.app.blobStores, server.app.log);
    const blobFile = path.join(server.dataDir, 'blobs', blobKeyOf(sha256(data)));

    // Raw: the bytes are read piece by piece while the version is pruned.
    const res = await fetch(server.url + versionUrl(`${root}/long.bin`, old!._id), { headers: { authorization: `Bearer ${master.token}` } });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const pieces: Uint8Array[] = [];
    const first = await reader.read();
    pieces.push(first.value!);

    // The retention keeps nothing now: the version goes, and the collector runs.
    await call(server, apiCalls.version_setting_update, { token: master.token, body: { maxVersions: 0, maxAgeDays: null } });
    try {
      expect(await server.app.versions.prune()).toBeGreaterThanOrEqual(1);
      expect((await versionsOf(server, master.token, `${root}/long.bin`)).map((v) => v.current)).toEqual([true]);
      await jobs.collectUnreferenced();
      expect(fs.existsSync(blobFile)).toBe(true);

      for (let piece = await reader.read(); !piece.done; piece = await reader.read()) pieces.push(piece.value);
      expect(sha256(Buffer.concat(pieces))).toBe(sha256(data));
      // The answer ended: its pin is released, and the next collection takes the blob.
      for (let tries = 0; tries < 500 && (await server.app.db.selectFrom('blob_pins').select('id').execute()).length > 0; tries++)
        await new Promise((r) => setTimeout(r, 10));
      await jobs.collectUnreferenced();
      expect(fs.existsSync(blobFile)).toBe(false);
    } finally {
      await call(server, apiCalls.version_setting_update, { token: master.token, body: { maxVersions: 10, maxAgeDays: 30 } });
    }
  });
});
