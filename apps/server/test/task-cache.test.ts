import { afterAll, beforeAll, expect, it } from 'vitest';
import { newLocalUser } from '../src/modules/users/new-user.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import { signInAs } from './files-helpers.js';
import { bytesOf, sendChunk, upload } from './transfer-helpers.js';

// The task panel's list (GET /api/cache) loads on every page: it answers 200 for any
// signed-in account, one that must still change its initial password included, and it
// holds only work the user started (search indexing is not shown as a task).

describeEachDialect('the task list on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers 200 to an account that must still change its initial password', async () => {
    await server.app.db
      .insertInto('users')
      .values(await newLocalUser({ name: '신입', email: 'new@example.com', password: GOOD_PASSWORD, role: 'USER', mustChangePassword: true }))
      .execute();
    const login = await call(server, apiCalls.login, { body: { email: 'new@example.com', password: GOOD_PASSWORD } });
    expect(login.status).toBe(200);
    if (!('token' in login.body)) throw new Error(`a second factor was asked: ${login.text}`);
    const cache = await call(server, apiCalls.task_cache, { token: login.body.token });
    expect(cache.status).toBe(200);
    expect(cache.body).toEqual({});
  });

  it('uploading text files shows the uploads and no indexing task', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: '문서', path: '/' } });
    for (const name of ['a.txt', 'b.md'])
      expect((await upload(server, master.token, '/문서', name, Buffer.from(`색인할 내용 ${name} `.repeat(50)))).status).toBe(200);
    expect((await upload(server, master.token, '/문서', 'c.bin', bytesOf(100))).status).toBe(200);
    await server.app.searchIndex.idle();
    const tasks = Object.values((await call(server, apiCalls.task_cache, { token: master.token })).body);
    expect(tasks.map((t) => `${t.type}:${t.name}`).sort()).toEqual(['upload:a.txt', 'upload:b.md', 'upload:c.bin']);
    const indexed = await server.app.db.selectFrom('search_texts').select('status').execute();
    expect(indexed.filter((row) => row.status === 'indexed').length).toBeGreaterThanOrEqual(2);
  });
  it('an upload stopped in the browser shows canceled, tells no one, and a retry completes it', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: '멈춤', path: '/' } });
    const data = bytesOf(CHUNK_SIZE + 1000, 'stopped');
    const file = { path: '/멈춤', fileName: '긴 영상.bin', fileSize: data.length, totalChunks: 2 };
    const uploadId = 'stop-0123456789abcdef';
    const first = await sendChunk(server, master.token, { ...file, chunkIndex: 0, bytes: data.subarray(0, CHUNK_SIZE), fields: { uploadId } });
    expect(first.status).toBe(200);
    const taskOf = async () => Object.values((await call(server, apiCalls.task_cache, { token: master.token })).body).find((t) => t.name === '긴 영상.bin');
    expect(await taskOf()).toMatchObject({ status: 'running' });
    const notesBefore = (await call(server, apiCalls.notification_list, { token: master.token })).body.length;

    const cancel = await call(server, apiCalls.file_upload_cancel, {
      token: master.token,
      body: { path: file.path, fileName: file.fileName, fileSize: file.fileSize, uploadId },
    });
    expect(cancel.status).toBe(204);
    expect(await taskOf()).toMatchObject({ status: 'canceled' });
    expect((await call(server, apiCalls.notification_list, { token: master.token })).body.length).toBe(notesBefore);
    // Someone else's cancel of the same name finds no upload of theirs: nothing changes.
    const other = await signInAs(server, 'other-canceler@example.com', 'ADMIN');
    expect(
      (
        await call(server, apiCalls.file_upload_cancel, {
          token: other.token,
          body: { path: file.path, fileName: file.fileName, fileSize: file.fileSize, uploadId },
        })
      ).status,
    ).toBe(204);

    const last = await sendChunk(server, master.token, { ...file, chunkIndex: 1, bytes: data.subarray(CHUNK_SIZE), fields: { uploadId } });
    expect(last.status).toBe(200);
    expect(await taskOf()).toMatchObject({ status: 'completed', progress: 100 });
    const bad = await callRefused(server, apiCalls.file_upload_cancel, { token: master.token, body: { path: file.path, fileName: '', fileSize: -1 } });
    expect(bad.status).toBe(400);
  });
});
