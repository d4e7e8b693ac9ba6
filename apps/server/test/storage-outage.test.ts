import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { namesIn } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { startS3, type TestS3 } from './s3.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

const ROOT = '/클라우드 팀';

describeEachDialect('a cloud bucket that stops answering, on $dialect', (dialect) => {
  let s3: TestS3;
  let server: TestServer;
  let token: string;
  let bucket: string;
  const kept = bytesOf(3 * 1024 * 1024 + 5, 'kept in the bucket');
  const later = bytesOf(700_000, 'sent while the bucket is away');

  beforeAll(async () => {
    s3 = await startS3();
    server = await startServer(dialect, s3.env);
    token = (await setupMaster(server)).token;
    expect((await call(server, apiCalls.admin_mode, { token, body: { password: GOOD_PASSWORD } })).body).toEqual({ success: true });
    bucket = await s3.bucket();
    await call(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket } } });
    await call(server, apiCalls.folder_create, { token, body: { name: ROOT.slice(1), path: '/', backend: 'cloud' } });
    expect((await upload(server, token, ROOT, 'kept.bin', kept)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  const download = (name: string) => fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${ROOT}/${name}`)}`);

  it('downloads and uploads answer 503 storage_unavailable_message and change nothing; both work once it is back', async () => {
    await s3.stop();
    try {
      const refused = await download('kept.bin');
      expect(refused.status).toBe(503);
      expect(JSON.parse(refused.bytes.toString('utf8')).message).toBe('storage_unavailable_message');

      const sent = await upload(server, token, ROOT, 'later.bin', later);
      expect([sent.status, sent.body.message]).toEqual([503, 'storage_unavailable_message']);
      // Listing is the database's: it still answers, and shows no half-stored file.
      expect((await namesIn(server, token, ROOT)).sort()).toEqual(['kept.bin']);
      // Saving the bucket cannot tell whether it exists: unreachable, not missing.
      const saved = await callRefused(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket } } });
      expect([saved.status, saved.body.message]).toEqual([503, 'storage_unavailable_message']);
    } finally {
      await s3.resume();
    }
    const back = await download('kept.bin');
    expect([back.status, sha256(back.bytes)]).toEqual([200, sha256(kept)]);
    expect((await upload(server, token, ROOT, 'later.bin', later)).status).toBe(200);
    const stored = await download('later.bin');
    expect([stored.status, sha256(stored.bytes)]).toEqual([200, sha256(later)]);
  });
});
