import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { bytesOf, upload } from './transfer-helpers.js';

const s3Server = useS3();

describeEachDialect('a stopped storage sync notifies once on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    master = await setupMaster(server);
    // A bucket for the cloud backend (cloud settings need admin mode).
    await call(server, apiCalls.admin_mode, { token: master.token, body: { password: GOOD_PASSWORD } });
    await call(server, apiCalls.storage_setting_update, { token: master.token, body: { cloud: { bucket: await s3Server().bucket() } } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
    expect((await upload(server, master.token, '/Team', 'a.bin', bytesOf(4000, 'sync-a'))).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const syncMessages = async () =>
    (await call(server, apiCalls.notification_list, { token: master.token })).body.map((n) => n.key).filter((key) => key.startsWith('note_task_sync_'));

  it('canceled while copying: one notification, the task stays canceled', async () => {
    // Writes to the cloud wait, so the sync is caught in flight.
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
    const before = (await syncMessages()).length;
    const started = await call(server, apiCalls.storage_sync, { token: master.token, body: { path: '/Team', mode: 'move' } });
    await expect.poll(() => waiting, { timeout: 10_000 }).toBeGreaterThan(0);
    await call(server, apiCalls.sync_cancel, { token: master.token, params: { id: started.body.taskId } });
    open();
    const syncStatus = async () =>
      (await call(server, apiCalls.storage_sync_list, { token: master.token })).body.find((s) => s._id === started.body._id)?.status;
    await expect.poll(syncStatus, { timeout: 15_000 }).toBe('canceled');
    cloud.put = original;
    // The run's own end has been reported by now; give a late report time to arrive too.
    await new Promise((r) => setTimeout(r, 300));
    const after = await syncMessages();
    expect(after.length - before).toBe(1);
    expect(after[0]).toBe('note_task_sync_canceled');
    const cache = (await call(server, apiCalls.task_cache, { token: master.token })).body;
    expect(Object.values(cache).find((t) => t.cacheKey.endsWith(started.body.taskId))?.status).toBe('canceled');
  });
});
