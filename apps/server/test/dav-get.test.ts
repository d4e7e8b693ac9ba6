import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialectAndBackend, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { bytesOf, fetchBytes, sha256 } from './transfer-helpers.js';
import { type DavAccount, dav, davMaster, davPath, davRoot, davUser } from './dav-helpers.js';

const s3Server = useS3();

describeEachDialectAndBackend('WebDAV GET and HEAD on $dialect, $backend backend', (dialect, backend) => {
  let server: TestServer;
  let master: DavAccount;
  const root = `/문서 ${backend}`;
  const path = `${root}/발표 자료.pptx`;
  const data = bytesOf(300_000, `get-${backend}`);

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    master = await davMaster(server);
    await davRoot(server, master.token, root.slice(1), backend, () => s3Server().bucket());
    expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: data })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers the bytes with the same ETag as the web download, as an attachment that cannot run', async () => {
    const res = await dav(server, 'GET', davPath(path), { auth: master.auth });
    expect(res.status).toBe(200);
    expect(sha256(res.bytes)).toBe(sha256(data));
    const web = await fetchBytes(server, master.token, `/api/file/download?path=${encodeURIComponent(path)}`);
    expect(res.headers.get('etag')).toBe(web.headers.get('etag'));
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('content-disposition')).toMatch(/^attachment;/);
    expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    expect(res.headers.get('content-security-policy')).toContain('sandbox');
  });

  it('serves a Range with 206, refuses an unsatisfiable one with 416', async () => {
    const res = await dav(server, 'GET', davPath(path), { auth: master.auth, headers: { range: 'bytes=100-199' } });
    expect(res.status).toBe(206);
    expect(res.headers.get('content-range')).toBe(`bytes 100-199/${data.length}`);
    expect(res.bytes.equals(data.subarray(100, 200))).toBe(true);
    const bad = await dav(server, 'GET', davPath(path), { auth: master.auth, headers: { range: `bytes=${data.length}-` } });
    expect(bad.status).toBe(416);
    expect(bad.headers.get('content-range')).toBe(`bytes */${data.length}`);
  });

  it('answers 304 to If-None-Match with the ETag and to If-Modified-Since after the change', async () => {
    const etag = `"${sha256(data)}"`;
    expect((await dav(server, 'GET', davPath(path), { auth: master.auth, headers: { 'if-none-match': etag } })).status).toBe(304);
    expect((await dav(server, 'GET', davPath(path), { auth: master.auth, headers: { 'if-none-match': '"other"' } })).status).toBe(200);
    const later = new Date(Date.now() + 60_000).toUTCString();
    expect((await dav(server, 'GET', davPath(path), { auth: master.auth, headers: { 'if-modified-since': later } })).status).toBe(304);
    const earlier = new Date(Date.now() - 3600_000).toUTCString();
    expect((await dav(server, 'GET', davPath(path), { auth: master.auth, headers: { 'if-modified-since': earlier } })).status).toBe(200);
  });

  it('HEAD answers the headers without the body', async () => {
    const res = await dav(server, 'HEAD', davPath(path), { auth: master.auth });
    expect(res.status).toBe(200);
    expect(res.headers.get('etag')).toBe(`"${sha256(data)}"`);
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.bytes.length).toBe(0);
  });

  it('a file in a secure folder needs an approved request, as a web download', async () => {
    const user = await davUser(server, `secure-${dialect}-${backend}@example.com`);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: '기밀', path: root } });
    expect((await dav(server, 'PUT', davPath(`${root}/기밀/plan.bin`), { auth: master.auth, body: 'secret plan' })).status).toBe(201);
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: `${root}/기밀`, lock: true } })).status).toBe(200);
    for (const account of [user, master]) {
      const refused = await dav(server, 'GET', davPath(`${root}/기밀/plan.bin`), { auth: account.auth });
      expect(refused.status).toBe(403);
      expect(refused.text).not.toContain('secret plan');
    }
    const asked = await call(server, apiCalls.request_create, {
      token: user.token,
      body: { type: 'download', paths: [`${root}/기밀/plan.bin`], reason: '검토' },
    });
    expect(asked.status).toBe(200);
    expect(
      (await call(server, apiCalls.request_update, { token: master.token, params: { id: asked.body._id }, body: { action: 'approve' } })).body.status,
    ).toBe('APPROVED');
    const allowed = await dav(server, 'GET', davPath(`${root}/기밀/plan.bin`), { auth: user.auth });
    expect(allowed.status).toBe(200);
    expect(allowed.text).toBe('secret plan');
  });

  it('a folder answers a short text; a missing file 404', async () => {
    const folder = await dav(server, 'GET', davPath(root, true), { auth: master.auth });
    expect(folder.status).toBe(200);
    expect(folder.headers.get('content-type')).toContain('text/plain');
    expect((await dav(server, 'GET', davPath(`${root}/없음.txt`), { auth: master.auth })).status).toBe(404);
  });
});
