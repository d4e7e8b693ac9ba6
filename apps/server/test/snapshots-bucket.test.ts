import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { startS3, type TestS3 } from './s3.js';
import { createPlan, createRoot, finishedRestore, restoreItems, runPlan } from './snapshots-helpers.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

const MiB = 1024 * 1024;

describeEachDialect('snapshots saved to a bucket on $dialect', (dialect) => {
  let s3: TestS3;
  let server: TestServer;
  let token: string;
  let planId: string;
  let firstRun: string;
  const report = bytesOf(2 * MiB + 17, 'report');

  beforeAll(async () => {
    s3 = await startS3();
    server = await startServer(dialect, s3.env);
    token = (await setupMaster(server)).token;
    await createRoot(server, token, 'Team');
    expect((await upload(server, token, '/Team', '보고서.bin', report)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
    await s3?.close();
  });

  it('backs up into a bucket and restores a deleted file from it with the same SHA-256', async () => {
    const bucket = await s3.bucket();
    const plan = await createPlan(server, token, '', { location: { kind: 's3', bucket, prefix: 'bogwan/daily' } });
    planId = plan._id;
    const done = await runPlan(server, token, planId);
    expect(done).toMatchObject({ status: 'completed', files: 1, size: report.length, error: null });
    firstRun = done._id;
    const stored = await s3.client.send(new (await import('@aws-sdk/client-s3')).ListObjectsV2Command({ Bucket: bucket, Prefix: 'bogwan/daily/' }));
    expect((stored.Contents ?? []).map((o) => o.Key)).toContain('bogwan/daily/config');

    await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/보고서.bin'] } });
    const restored = await restoreItems(server, token, { runId: firstRun, items: ['Team/보고서.bin'], target: { kind: 'original' } });
    expect(restored).toMatchObject({ status: 'completed', files: 1, failed: 0 });
    const bytes = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent('/Team/보고서.bin')}`);
    expect(sha256(bytes.bytes)).toBe(sha256(report));
  });

  it('with the bucket unreachable, runs and restores fail with their own message; once it is back they complete', async () => {
    await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/보고서.bin'] } });
    await s3.stop();
    try {
      const failed = await runPlan(server, token, planId);
      expect(failed).toMatchObject({ status: 'failure', error: 'snapshot_location_unreachable' });
      // A restore is refused at once, or starts and fails, with the same message (raw: either answer is right).
      const res = await server.request('POST', '/api/restore', { token, body: { runId: firstRun, items: ['Team/보고서.bin'], target: { kind: 'original' } } });
      if (res.status === 202) {
        expect(await finishedRestore(server, token, res.body._id)).toMatchObject({ status: 'failure', error: 'snapshot_location_unreachable' });
      } else {
        expect(res.status).toBe(503);
        expect(res.body.message).toBe('snapshot_location_unreachable');
      }
    } finally {
      await s3.resume();
    }
    // The operation lock was released and nothing in the repository was damaged.
    expect(await runPlan(server, token, planId)).toMatchObject({ status: 'completed', error: null });
    const restored = await restoreItems(server, token, { runId: firstRun, items: ['Team/보고서.bin'], target: { kind: 'original' } });
    expect(restored).toMatchObject({ status: 'completed', files: 1, failed: 0 });
    const bytes = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent('/Team/보고서.bin')}`);
    expect(sha256(bytes.bytes)).toBe(sha256(report));
  }, 120_000);
});
