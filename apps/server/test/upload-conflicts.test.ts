import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { namesIn, signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialectAndBackend, setupMaster, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { davRoot } from './dav-helpers.js';
import { bytesOf, fetchBytes, sendChunk, sha256, upload } from './transfer-helpers.js';
import { uploadAs, versionsOf } from './versions-helpers.js';

const s3Server = useS3();

describeEachDialectAndBackend('upload conflicts on $dialect, $backend backend', (dialect, backend) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let other: Awaited<ReturnType<typeof signInAs>>;
  const root = `/충돌 ${backend}`;

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    master = await setupMaster(server);
    other = await signInAs(server, 'other@example.com');
    await davRoot(server, master.token, root.slice(1), backend, () => s3Server().bucket());
  });
  afterAll(async () => {
    await server?.close();
  });

  const download = async (path: string) => (await fetchBytes(server, master.token, `/api/file/download?path=${encodeURIComponent(path)}`)).bytes;

  it('the check answers, for a whole drop, which names exist, as what, and the name keep-both would give', async () => {
    expect((await upload(server, master.token, root, '계약서.hwp', Buffer.from('a'))).status).toBe(200);
    expect((await upload(server, master.token, root, '계약서 (1).hwp', Buffer.from('b'))).status).toBe(200);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: '사진', path: root } });
    expect((await upload(server, master.token, `${root}/사진`, '1.jpg', Buffer.from('c'))).status).toBe(200);
    const res = await call(server, apiCalls.file_upload_check, {
      token: other.token,
      body: { path: root, names: ['계약서.hwp', '새 파일.txt', '사진', '사진/1.jpg', '사진/2.jpg', '없는폴더/1.jpg'] },
    });
    expect(res.status).toBe(200);
    expect(res.body.items).toEqual([
      { name: '계약서.hwp', exists: true, kind: 'file', suggested: '계약서 (2).hwp' },
      { name: '새 파일.txt', exists: false, kind: null, suggested: '새 파일.txt' },
      { name: '사진', exists: true, kind: 'folder', suggested: '사진 (1)' },
      { name: '사진/1.jpg', exists: true, kind: 'file', suggested: '사진/1 (1).jpg' },
      { name: '사진/2.jpg', exists: false, kind: null, suggested: '사진/2.jpg' },
      { name: '없는폴더/1.jpg', exists: false, kind: null, suggested: '없는폴더/1.jpg' },
    ]);
    for (const names of [[], ['../x'], Array.from({ length: 1001 }, (_, i) => `${i}`)]) {
      expect((await callRefused(server, apiCalls.file_upload_check, { token: other.token, body: { path: root, names } })).status).toBe(400);
    }
    expect((await callRefused(server, apiCalls.file_upload_check, { token: other.token, body: { path: '/없는 곳', names: ['a'] } })).status).toBe(404);
  });

  it('keep-both when `name (1)` exists too stores `name (2)`; the others stay as they were', async () => {
    const third = Buffer.from('세 번째');
    const res = await uploadAs(server, other.token, root, '계약서.hwp', third, 'keep-both');
    expect(res.status).toBe(200);
    expect(res.body.file.name).toBe('계약서 (2).hwp');
    expect((await download(`${root}/계약서 (2).hwp`)).toString()).toBe('세 번째');
    expect((await download(`${root}/계약서.hwp`)).toString()).toBe('a');
    expect((await download(`${root}/계약서 (1).hwp`)).toString()).toBe('b');
  });

  it('a taken name with `fail` is refused at the first chunk, before its bytes are stored', async () => {
    const data = bytesOf(CHUNK_SIZE + 10, `early-${backend}`);
    const first = await sendChunk(server, other.token, {
      path: root,
      fileName: '계약서.hwp',
      fileSize: data.length,
      chunkIndex: 0,
      totalChunks: 2,
      bytes: data.subarray(0, CHUNK_SIZE),
      fields: { onConflict: 'fail' },
    });
    expect(first.status).toBe(409);
    expect(first.body.message).toBe('file_exists_warning');
    expect(await server.app.db.selectFrom('upload_chunks').select('idx').execute()).toEqual([]);
  });

  it('an upload whose name another user takes meanwhile ends in 409 at completion, never overwriting', async () => {
    const mine = bytesOf(CHUNK_SIZE + 100, `mine-${backend}`);
    const first = await sendChunk(server, other.token, {
      path: root,
      fileName: '동시.txt',
      fileSize: mine.length,
      chunkIndex: 0,
      totalChunks: 2,
      bytes: mine.subarray(0, CHUNK_SIZE),
      fields: { onConflict: 'fail' },
    });
    expect(first.status).toBe(200);
    expect((await upload(server, master.token, root, '동시.txt', Buffer.from('먼저 끝난 파일'))).status).toBe(200);
    const last = await sendChunk(server, other.token, {
      path: root,
      fileName: '동시.txt',
      fileSize: mine.length,
      chunkIndex: 1,
      totalChunks: 2,
      bytes: mine.subarray(CHUNK_SIZE),
      fields: { onConflict: 'fail' },
    });
    expect(last.status).toBe(409);
    expect(last.body.message).toBe('file_exists_warning');
    expect((await download(`${root}/동시.txt`)).toString()).toBe('먼저 끝난 파일');
  });

  it('replace while another user replaces the same name: both land, the earlier contents are kept as versions', async () => {
    const original = Buffer.from('원본');
    expect((await upload(server, master.token, root, '공동.txt', original)).status).toBe(200);
    const a = bytesOf(3000, `a-${backend}`);
    const b = bytesOf(4000, `b-${backend}`);
    const answers = await Promise.all([
      uploadAs(server, master.token, root, '공동.txt', a, 'replace'),
      uploadAs(server, other.token, root, '공동.txt', b, 'replace'),
    ]);
    expect(answers.map((r) => r.status)).toEqual([200, 200]);
    const listed = await versionsOf(server, master.token, `${root}/공동.txt`);
    expect(listed.map((v) => v.hash).sort()).toEqual([sha256(original), sha256(a), sha256(b)].sort());
    expect(listed[0]!.hash).toBe(sha256(await download(`${root}/공동.txt`)));
    expect((await namesIn(server, master.token, root)).filter((n) => n.startsWith('공동'))).toEqual(['공동.txt']);
  });

  it('replace onto a folder is refused (409); replace of a name that is free adds the file', async () => {
    const onFolder = await uploadAs(server, master.token, root, '사진', Buffer.from('x'), 'replace');
    expect(onFolder.status).toBe(409);
    expect(onFolder.body.message).toBe('file_exists_warning');
    expect((await uploadAs(server, master.token, root, '처음.txt', Buffer.from('new'), 'replace')).body.file.name).toBe('처음.txt');
    const bad = await uploadAs(server, master.token, root, '처음.txt', Buffer.from('new'), 'overwrite');
    expect(bad.status).toBe(400);
  });
});
