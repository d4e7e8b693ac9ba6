import fs from 'node:fs';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { SettingsRepo } from '../src/modules/settings/settings.repo.js';
import { TransferJobs } from '../src/modules/transfer/transfer.jobs.js';
import { TransferRepo } from '../src/modules/transfer/transfer.repo.js';
import { BLOB_MARKER } from '../src/storage/blob-marker.js';
import { blobKeyOf } from '../src/storage/blob-store.js';
import { SERVER_PATH_SETTING } from '../src/storage/blob-stores.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { removeAfterFile, scratchDir } from './scratch-dir.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

const s3Server = useS3();

describeEachDialect('storage administration on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: { token: string; user: { _id: string } };
  let user: { token: string; user: { _id: string } };

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com', 'USER');
    for (const name of ['Team', 'Beta', 'Alpha', 'Old_deleted_1']) {
      await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const volumes = (token = admin.token) => call(server, apiCalls.storage_volume, { token });
  const syncs = () => call(server, apiCalls.storage_sync_list, { token: admin.token });
  const syncOf = async (id: string) => (await syncs()).body.find((s) => s._id === id);
  const waitForSync = async (id: string, status: string) => expect.poll(async () => (await syncOf(id))?.status, { timeout: 15_000 }).toBe(status);
  const nodesOf = (rootName: string) =>
    server.app.db
      .selectFrom('nodes')
      .selectAll()
      .where(
        'root_id',
        '=',
        server.app.db.selectFrom('nodes').select('id').where('parent_id', '=', '').where('name', '=', rootName).where('trash_key', '=', ''),
      )
      .execute();
  const refOf = async (backend: string, hash: string) =>
    (await server.app.db.selectFrom('blobs').select('ref_count').where('backend', '=', backend).where('hash', '=', hash).executeTakeFirst())?.ref_count ?? 0;

  /** Holds every write to the cloud store until `release` (a sync in flight, observable). */
  async function gateCloudWrites(): Promise<{ release: () => void; waiting: () => number; restore: () => void }> {
    const cloud = (await server.app.blobStores.cloud())!;
    const original = cloud.put.bind(cloud);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let waiting = 0;
    cloud.put = async (key, body) => {
      waiting += 1;
      await gate;
      return original(key, body);
    };
    return { release: open, waiting: () => waiting, restore: () => (cloud.put = original) };
  }

  it('refuses every storage call to a USER', async () => {
    const token = user.token;
    const calls: [string, string, () => ReturnType<typeof callRefused>][] = [
      ['GET', '/api/storage/volume', () => callRefused(server, apiCalls.storage_volume, { token })],
      ['GET', '/api/storage/sync', () => callRefused(server, apiCalls.storage_sync_list, { token })],
      ['POST', '/api/storage/sync', () => callRefused(server, apiCalls.storage_sync, { token, body: { path: '/Team', mode: 'move' } })],
      ['POST', '/api/sync/cancel/some-task', () => callRefused(server, apiCalls.sync_cancel, { token, params: { id: 'some-task' } })],
      ['POST', '/api/setting/admin', () => callRefused(server, apiCalls.admin_mode, { token, body: { password: GOOD_PASSWORD } })],
      ['DELETE', '/api/setting/admin', () => callRefused(server, apiCalls.admin_mode_off, { token })],
      ['GET', '/api/setting/storage', () => callRefused(server, apiCalls.storage_setting, { token })],
      ['PUT', '/api/setting/storage', () => callRefused(server, apiCalls.storage_setting_update, { token, body: { server: { path: '/tmp' } } })],
      ['PUT', '/api/file/root/volume', () => callRefused(server, apiCalls.root_volume, { token, body: { path: '/Team', volume: 1024 } })],
    ];
    for (const [method, url, refuse] of calls) {
      const res = await refuse();
      expect([method, url, res.status, res.body.message]).toEqual([method, url, 403, 'no_access_warning']);
    }
    expect((await callRefused(server, apiCalls.storage_volume)).status).toBe(401);
  });

  const putServerPath = (dir: string) => call(server, apiCalls.storage_setting_update, { token: admin.token, body: { server: { path: dir } } });
  const refuseServerPath = (dir: string) => callRefused(server, apiCalls.storage_setting_update, { token: admin.token, body: { server: { path: dir } } });
  const storedServerPath = async () => (await call(server, apiCalls.storage_setting, { token: admin.token })).body.server.path;
  /** A directory holding someone else's files, with a day-old file in its own `tmp/`. */
  const foreignDir = () => {
    const dir = scratchDir('bogwan-foreign-');
    fs.writeFileSync(path.join(dir, 'notes.txt'), 'keep me');
    fs.mkdirSync(path.join(dir, 'tmp'));
    fs.writeFileSync(path.join(dir, 'tmp', 'theirs.txt'), 'keep me too');
    const dayOld = new Date(Date.now() - 2 * 24 * 3600_000);
    fs.utimesSync(path.join(dir, 'tmp', 'theirs.txt'), dayOld, dayOld);
    return dir;
  };

  it('takes as server.path only a new or empty directory, or one that is already a blob directory', async () => {
    const defaultPath = path.join(server.dataDir, 'blobs');
    expect(await storedServerPath()).toBe(defaultPath);
    const root = await refuseServerPath('/');
    expect([root.status, root.body.message]).toEqual([400, 'storage_path_not_empty']);
    const foreign = foreignDir();
    const refused = await refuseServerPath(foreign);
    expect([refused.status, refused.body.message]).toEqual([400, 'storage_path_not_empty']);
    expect(fs.readdirSync(foreign).sort()).toEqual(['notes.txt', 'tmp']);
    expect((await refuseServerPath('relative/blobs')).body.message).toBe('invalid_path');
    // Not inside the blob directory in use (its tmp/ is swept).
    expect((await refuseServerPath(path.join(defaultPath, 'tmp'))).body.message).toBe('invalid_path');
    expect(await storedServerPath()).toBe(defaultPath);

    const empty = scratchDir('bogwan-empty-');
    const accepted = await putServerPath(empty);
    expect([accepted.status, accepted.body.server]).toEqual([200, { path: empty }]);
    expect(fs.existsSync(path.join(empty, BLOB_MARKER))).toBe(true);
    const fresh = path.join(removeAfterFile(`${empty}-new`), 'blobs');
    expect((await putServerPath(fresh)).body.server).toEqual({ path: path.resolve(fresh) });
    // The default directory holds the server's things and carries the marker: taken back.
    const back = await putServerPath(defaultPath);
    expect([back.status, back.body.server]).toEqual([200, { path: defaultPath }]);
  });

  it('the hourly clean-up never deletes in a server directory without the marker', async () => {
    const foreign = foreignDir();
    // As a setting saved before directories were checked would have it.
    const settings = new SettingsRepo(server.app.db);
    await settings.set(SERVER_PATH_SETTING, foreign);
    // Every process must see the directory as the installation's (its identity file, recorded).
    await server.app.blobStores.adopt(foreign);
    try {
      expect(await storedServerPath()).toBe(foreign);
      const lookalike = 'f'.repeat(64);
      fs.mkdirSync(path.join(foreign, 'ff', 'ff'), { recursive: true });
      fs.writeFileSync(path.join(foreign, blobKeyOf(lookalike)), 'not a blob of ours');
      const old = new Date(Date.now() - 2 * 24 * 3600_000);
      fs.utimesSync(path.join(foreign, blobKeyOf(lookalike)), old, old);
      const jobs = new TransferJobs(new TransferRepo(server.app.db), server.app.blobStores, server.app.log);
      expect(await jobs.collectOrphans(new Date(Date.now() - 24 * 3600_000))).toBe(0);
      expect(fs.readFileSync(path.join(foreign, 'tmp', 'theirs.txt'), 'utf8')).toBe('keep me too');
      expect(fs.existsSync(path.join(foreign, blobKeyOf(lookalike)))).toBe(true);
      expect(fs.existsSync(path.join(foreign, BLOB_MARKER))).toBe(false);
    } finally {
      await settings.delete(SERVER_PATH_SETTING);
      await server.app.blobStores.adopt(await server.app.blobStores.serverPath());
    }
  });

  it('lists the volume table by name without _deleted_ roots, with rates and trash counted', async () => {
    const data = bytesOf(3000, 'volume-a');
    expect((await upload(server, admin.token, '/Alpha', 'a.bin', data)).status).toBe(200);
    expect((await upload(server, admin.token, '/Beta', 'b.bin', bytesOf(1000, 'volume-b'))).status).toBe(200);
    expect((await upload(server, admin.token, '/Beta', 'gone.bin', bytesOf(1000, 'volume-gone'))).status).toBe(200);
    await call(server, apiCalls.file_trash, { token: admin.token, body: { paths: ['/Beta/gone.bin'] } });
    await call(server, apiCalls.root_volume, { token: admin.token, body: { path: '/Alpha', volume: 4000 } });
    const res = await volumes();
    expect(res.status).toBe(200);
    const names = res.body.items.map((r) => r.name);
    expect(names).toEqual(['Alpha', 'Beta', 'Team']);
    expect(res.body.items[0]).toMatchObject({ path: '/Alpha', backend: 'server', volume: 4000, usage: 3000, available: 1000, usageRate: 0.75, syncing: false });
    expect(res.body.items[1]).toMatchObject({ volume: null, usage: 2000, available: null, usageRate: null });
    expect(res.body.used).toBe(5000);
    expect(res.body.items[0]!.totalUsageRate).toBeCloseTo(0.6);
    expect(res.body.cloudConfigured).toBe(false);
    expect((await volumes(master.token)).status).toBe(200);
  });

  it('accepts a limit below the usage: nothing is lost, further uploads are refused until there is room', async () => {
    const res = await call(server, apiCalls.root_volume, { token: admin.token, body: { path: '/Alpha', volume: 1024 } });
    expect(res.status).toBe(200);
    const row = (await volumes()).body.items[0]!;
    expect(row).toMatchObject({ volume: 1024, usage: 3000, available: 0 });
    expect(row.usageRate).toBeGreaterThan(1);
    const refused = await upload(server, admin.token, '/Alpha', 'more.bin', bytesOf(10, 'more'));
    expect([refused.status, refused.body.message]).toEqual([413, 'volume_exceeded_warning']);
    const kept = await fetchBytes(server, admin.token, '/api/file/download?path=/Alpha/a.bin');
    expect(kept.status).toBe(200);
    expect(sha256(kept.bytes)).toBe(sha256(bytesOf(3000, 'volume-a')));
    await call(server, apiCalls.root_volume, { token: admin.token, body: { path: '/Alpha', volume: null } });
    expect((await upload(server, admin.token, '/Alpha', 'more.bin', bytesOf(10, 'more'))).status).toBe(200);
  });

  it('refuses to move server.path while server folders hold files; the files stay readable', async () => {
    const before = await storedServerPath();
    const empty = scratchDir('bogwan-empty-');
    const refused = await refuseServerPath(empty);
    expect([refused.status, refused.body.message]).toEqual([409, 'storage_backend_in_use']);
    expect(fs.readdirSync(empty)).toEqual([]);
    expect(await storedServerPath()).toBe(before);
    const kept = await fetchBytes(server, admin.token, '/api/file/download?path=/Alpha/a.bin');
    expect([kept.status, sha256(kept.bytes)]).toEqual([200, sha256(bytesOf(3000, 'volume-a'))]);
    // Saving the path it already has changes nothing and is fine.
    expect((await putServerPath(before)).status).toBe(200);
  });

  it('admin mode checks the caller\u2019s own password and stops guessing after five tries', async () => {
    const check = (password: string, token = admin.token) => call(server, apiCalls.admin_mode, { token, body: { password } });
    const refuse = (password: string) => callRefused(server, apiCalls.admin_mode, { token: admin.token, body: { password } });
    expect((await check(GOOD_PASSWORD)).body).toEqual({ success: true });
    expect((await check(GOOD_PASSWORD, master.token)).body).toEqual({ success: true });
    for (let i = 0; i < 5; i++) expect((await check('Wrong!2026x')).body).toEqual({ success: false });
    const limited = await refuse(GOOD_PASSWORD);
    expect([limited.status, limited.body.message]).toEqual([429, 'too_many_requests_message']);
    // Another account is not held back by it.
    expect((await check(GOOD_PASSWORD, master.token)).body).toEqual({ success: true });
    expect((await refuse('')).status).toBe(400);
    const events = await call(server, apiCalls.event_list, { token: admin.token, query: { userId: admin.user._id } });
    expect(events.body.items).toContainEqual(expect.objectContaining({ action: 'admin_mode.refused', outcome: 'refused', reason: 'rules_password_not_match' }));
  });

  it('refuses a sync while no bucket is configured, and a bucket that does not exist', async () => {
    const res = await callRefused(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team', mode: 'move' } });
    expect([res.status, res.body.message]).toEqual([409, 'cloud_bucket_missing']);
    // The cloud fields need admin mode, per session: a fresh administrator session is refused.
    const fresh = await signInAs(server, 'fresh-admin@example.com', 'ADMIN');
    const locked = await callRefused(server, apiCalls.storage_setting_update, { token: fresh.token, body: { cloud: { bucket: 'no-such-bucket' } } });
    expect([locked.status, locked.body.message]).toEqual([403, 'admin_mode_required']);
    expect((await call(server, apiCalls.admin_mode, { token: fresh.token, body: { password: GOOD_PASSWORD } })).body).toEqual({ success: true });
    const missing = await callRefused(server, apiCalls.storage_setting_update, { token: fresh.token, body: { cloud: { bucket: 'no-such-bucket' } } });
    expect([missing.status, missing.body.message]).toEqual([400, 'cloud_bucket_missing']);
    const bucket = await s3Server().bucket();
    const saved = await call(server, apiCalls.storage_setting_update, { token: fresh.token, body: { cloud: { bucket } } });
    expect([saved.status, saved.body.cloud]).toEqual([200, { bucket }]);
    expect((await volumes()).body.cloudConfigured).toBe(true);
    const bad = await callRefused(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team/x', mode: 'move' } });
    expect(bad.status).toBe(400);
    const noName = await callRefused(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team', mode: 'copy' } });
    expect(noName.status).toBe(400);
  });

  it('turning admin mode off locks the cloud fields of that session again', async () => {
    const session = await signInAs(server, 'switch-admin@example.com', 'ADMIN');
    const putBucket = (bucket: string) => call(server, apiCalls.storage_setting_update, { token: session.token, body: { cloud: { bucket } } });
    expect((await call(server, apiCalls.admin_mode, { token: session.token, body: { password: GOOD_PASSWORD } })).body).toEqual({ success: true });
    const other = await s3Server().bucket();
    expect((await putBucket(other)).body.cloud).toEqual({ bucket: other });
    const off = await call(server, apiCalls.admin_mode_off, { token: session.token });
    expect([off.status, off.body]).toEqual([200, { success: true }]);
    const locked = await callRefused(server, apiCalls.storage_setting_update, { token: session.token, body: { cloud: { bucket: await s3Server().bucket() } } });
    expect([locked.status, locked.body.message]).toEqual([403, 'admin_mode_required']);
    expect((await call(server, apiCalls.storage_setting, { token: session.token })).body.cloud).toEqual({ bucket: other });
    const events = await call(server, apiCalls.event_list, { token: admin.token, query: { userId: session.user._id } });
    expect(events.body.items.map((e) => e.action)).toContain('admin_mode.off');
  });

  it('moves a root to the cloud in the background: reads and writes go on, then everything lives on the cloud', async () => {
    const a = bytesOf(300_000, 'team-a');
    const trashed = bytesOf(5000, 'team-trashed');
    expect((await upload(server, admin.token, '/Team', 'a.bin', a)).status).toBe(200);
    expect((await upload(server, admin.token, '/Team', 'old.bin', trashed)).status).toBe(200);
    const trash = await call(server, apiCalls.file_trash, { token: admin.token, body: { paths: ['/Team/old.bin'] } });
    const usageBefore = (await volumes()).body.items.find((r) => r.name === 'Team')!.usage;

    const gate = await gateCloudWrites();
    const started = await call(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team', mode: 'move' } });
    expect(started.status).toBe(200);
    expect(started.body).toMatchObject({ path: '/Team', mode: 'move', source: 'server', target: 'cloud', status: 'running' });
    await expect.poll(() => gate.waiting(), { timeout: 5000 }).toBeGreaterThan(0);

    // In flight: the folder reads from the server, takes new files, and refuses a second sync.
    expect((await volumes()).body.items.find((r) => r.name === 'Team')!.syncing).toBe(true);
    const during = await fetchBytes(server, admin.token, '/api/file/download?path=/Team/a.bin');
    expect(sha256(during.bytes)).toBe(sha256(a));
    const b = bytesOf(2000, 'team-b-during');
    expect((await upload(server, admin.token, '/Team', 'b.bin', b)).status).toBe(200);
    const second = await callRefused(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team', mode: 'move' } });
    expect([second.status, second.body.message]).toEqual([409, 'sync_in_progress']);
    const cache = await call(server, apiCalls.task_cache, { token: admin.token });
    const task = Object.values(cache.body).find((t) => t.type === 'sync');
    expect(task).toMatchObject({ status: 'running', clientPath: '/Team' });

    gate.release();
    await waitForSync(started.body._id, 'completed');
    gate.restore();

    const nodes = await nodesOf('Team');
    expect(new Set(nodes.map((n) => n.backend))).toEqual(new Set(['cloud']));
    const cloud = (await server.app.blobStores.cloud())!;
    for (const data of [a, b, trashed]) {
      expect(await cloud.stat(blobKeyOf(sha256(data)))).toEqual({ size: data.length });
      expect(await refOf('cloud', sha256(data))).toBe(1);
      expect(await refOf('server', sha256(data))).toBe(0);
    }
    expect(await server.app.db.selectFrom('storage_sync_pins').selectAll().execute()).toEqual([]);
    for (const [name, data] of [
      ['a.bin', a],
      ['b.bin', b],
    ] as const) {
      const got = await fetchBytes(server, admin.token, `/api/file/download?path=/Team/${name}`);
      expect([got.status, sha256(got.bytes)]).toEqual([200, sha256(data)]);
    }
    const restored = await call(server, apiCalls.trash_restore, { token: admin.token, body: { ids: trash.body.ids } });
    expect(restored.status).toBe(200);
    expect(sha256((await fetchBytes(server, admin.token, '/api/file/download?path=/Team/old.bin')).bytes)).toBe(sha256(trashed));
    const row = (await volumes()).body.items.find((r) => r.name === 'Team');
    expect(row).toMatchObject({ backend: 'cloud', syncing: false, usage: usageBefore + b.length });
    const syncTask = async () => Object.values((await call(server, apiCalls.task_cache, { token: admin.token })).body).find((t) => t.type === 'sync');
    await expect.poll(syncTask, { timeout: 5000 }).toMatchObject({ status: 'completed', progress: 100 });
    // New files now go to the cloud.
    expect((await upload(server, admin.token, '/Team', 'c.bin', bytesOf(100, 'team-c'))).status).toBe(200);
    expect((await nodesOf('Team')).find((n) => n.name === 'c.bin')?.backend).toBe('cloud');
    const events = await call(server, apiCalls.event_list, { token: admin.token, query: { userId: admin.user._id } });
    expect(events.body.items).toContainEqual(
      expect.objectContaining({
        action: 'storage.sync',
        target: expect.objectContaining({ path: '/Team' }),
        params: expect.objectContaining({ status: 'completed', mode: 'move', to: 'cloud' }),
      }),
    );
  });

  it('refuses a new bucket while cloud folders hold files; they stay readable from the bucket they are in', async () => {
    const before = (await call(server, apiCalls.storage_setting, { token: admin.token })).body.cloud;
    const refused = await callRefused(server, apiCalls.storage_setting_update, { token: admin.token, body: { cloud: { bucket: await s3Server().bucket() } } });
    expect([refused.status, refused.body.message]).toEqual([409, 'storage_backend_in_use']);
    expect((await call(server, apiCalls.storage_setting, { token: admin.token })).body.cloud).toEqual(before);
    const kept = await fetchBytes(server, admin.token, '/api/file/download?path=/Team/a.bin');
    expect([kept.status, sha256(kept.bytes)]).toEqual([200, sha256(bytesOf(300_000, 'team-a'))]);
  });

  it('refuses a file whose bytes went to the backend its folder has left', async () => {
    const folder = (await server.app.fileTree.resolve('/Team'))!;
    const hash = sha256(Buffer.from('stale'));
    await expect(
      server.app.fileTree.addFile(folder, {
        name: 'late.bin',
        size: 5,
        contentHash: hash,
        blobKey: blobKeyOf(hash),
        ownerId: admin.user._id,
        backend: 'server',
      }),
    ).rejects.toMatchObject({ statusCode: 409, messageKey: 'backend_mismatch_warning' });
  });

  it('copies a root into a new root on the other backend, leaving the source as it was', async () => {
    const res = await call(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team', mode: 'copy', name: 'Team copy' } });
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ source: 'cloud', target: 'server', targetName: 'Team copy' });
    await waitForSync(res.body._id, 'completed');
    const copy = await nodesOf('Team copy');
    expect(new Set(copy.map((n) => n.backend))).toEqual(new Set(['server']));
    const list = await call(server, apiCalls.file_list, { token: admin.token, query: { path: '/Team copy' } });
    expect(list.body.items.map((i) => i.name).sort()).toEqual(['a.bin', 'b.bin', 'c.bin', 'old.bin']);
    const got = await fetchBytes(server, admin.token, '/api/file/download?path=/Team copy/a.bin');
    expect(sha256(got.bytes)).toBe(sha256(bytesOf(300_000, 'team-a')));
    const rows = (await volumes()).body.items;
    expect(rows.find((r) => r.name === 'Team copy')).toMatchObject({ backend: 'server', usage: 300_000 + 2000 + 5000 + 100 });
    expect(new Set((await nodesOf('Team')).map((n) => n.backend))).toEqual(new Set(['cloud']));
    const taken = await callRefused(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team', mode: 'copy', name: 'Team copy' } });
    expect([taken.status, taken.body.message]).toEqual([409, 'file_exists_warning']);
  });

  it('cancels a running move: the root stays where it was and the sync lets go of what it copied', async () => {
    const serverStore = await server.app.blobStores.local();
    const original = serverStore.put.bind(serverStore);
    let open!: () => void;
    const gate = new Promise<void>((resolve) => (open = resolve));
    let waiting = 0;
    serverStore.put = async (key, body) => {
      waiting += 1;
      await gate;
      return original(key, body);
    };
    // Files of their own, so the server store does not have them yet.
    expect((await upload(server, admin.token, '/Team', 'd.bin', bytesOf(4000, 'team-d'))).status).toBe(200);
    const started = await call(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Team', mode: 'move' } });
    expect(started.status).toBe(200);
    await expect.poll(() => waiting, { timeout: 5000 }).toBeGreaterThan(0);
    const cancel = await call(server, apiCalls.sync_cancel, { token: master.token, params: { id: started.body.taskId } });
    expect(cancel.status).toBe(200);
    open();
    await waitForSync(started.body._id, 'canceled');
    serverStore.put = original;
    expect(new Set((await nodesOf('Team')).map((n) => n.backend))).toEqual(new Set(['cloud']));
    // The run lets go of its pins as it stops.
    await expect.poll(() => server.app.db.selectFrom('storage_sync_pins').selectAll().execute(), { timeout: 5000 }).toEqual([]);
    expect(await refOf('server', sha256(bytesOf(4000, 'team-d')))).toBe(0);
    const got = await fetchBytes(server, admin.token, '/api/file/download?path=/Team/d.bin');
    expect(sha256(got.bytes)).toBe(sha256(bytesOf(4000, 'team-d')));
    const again = await callRefused(server, apiCalls.sync_cancel, { token: master.token, params: { id: started.body.taskId } });
    expect([again.status, again.body.message]).toEqual([409, 'task_not_cancelable']);
    const task = Object.values((await call(server, apiCalls.task_cache, { token: admin.token })).body).find((t) => t.cacheKey.endsWith(started.body.taskId));
    expect(task?.status).toBe('canceled');
  });

  it('marks a sync whose process died as failed and releases its pins; it can be started again', async () => {
    const root = (await server.app.fileTree.resolve('/Beta'))!;
    const old = new Date(Date.now() - 10 * 60_000).toISOString();
    const hash = sha256(bytesOf(1000, 'volume-b'));
    await server.app.db
      .insertInto('storage_syncs')
      .values({
        id: 'dead-sync',
        task_id: 'dead-task',
        root_id: root.id,
        path: '/Beta',
        mode: 'move',
        source: 'server',
        target: 'cloud',
        target_name: null,
        status: 'running',
        bytes_total: 1000,
        bytes_done: 0,
        error: null,
        owner_id: admin.user._id,
        created_at: old,
        updated_at: old,
      })
      .execute();
    await server.app.db.insertInto('storage_sync_pins').values({ sync_id: 'dead-sync', backend: 'cloud', hash, size: 1000 }).execute();
    await server.app.db.insertInto('blobs').values({ backend: 'cloud', hash, size: 1000, ref_count: 1, created_at: old }).execute();
    const res = await call(server, apiCalls.storage_sync, { token: admin.token, body: { path: '/Beta', mode: 'move' } });
    expect(res.status).toBe(200);
    const dead = await syncOf('dead-sync');
    expect(dead).toMatchObject({ status: 'failure', error: 'interrupted' });
    await waitForSync(res.body._id, 'completed');
    expect(await refOf('cloud', hash)).toBe(1);
    expect(sha256((await fetchBytes(server, admin.token, '/api/file/download?path=/Beta/b.bin')).bytes)).toBe(hash);
  });
});
