// A snapshot reads the live store's blob files; a blob gone from the disk fails the run
// with the product's own message key, whether the engine reads the file whole on its
// reader threads (small) or in its read window (large), and the next run completes once
// the blob is back.
import fs from 'node:fs/promises';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createPlan, createRoot, repoDir, runPlan } from './snapshots-helpers.js';
import { bytesOf, upload } from './transfer-helpers.js';

describeEachDialect('snapshot of blobs missing from the disk on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    await createRoot(server, token, 'Team');
  });
  afterAll(async () => {
    await server?.close();
  });

  const blobFileOf = async (name: string): Promise<string> => {
    const row = await server.app.db.selectFrom('nodes').select('blob_key').where('name', '=', name).executeTakeFirstOrThrow();
    return path.join(server.dataDir, 'blobs', row.blob_key!);
  };

  it('fails the run with snapshot_source_missing for a small or a large blob, and completes once both are back', async () => {
    const small = bytesOf(3000, 'small source');
    const large = bytesOf(2 * 1024 * 1024 + 5, 'large source');
    expect((await upload(server, token, '/Team', 'small.txt', small)).status).toBe(200);
    expect((await upload(server, token, '/Team', 'large.bin', large)).status).toBe(200);
    const planId = (await createPlan(server, token, repoDir()))._id;

    // large.bin comes first in the walk: a run that stops at small.txt has already stored it (and the next resumes it).
    for (const name of ['large.bin', 'small.txt']) {
      const file = await blobFileOf(name);
      const saved = await fs.readFile(file);
      await fs.rm(file);
      expect(await runPlan(server, token, planId), name).toMatchObject({ status: 'failure', error: 'snapshot_source_missing' });
      await fs.writeFile(file, saved);
    }
    expect(await runPlan(server, token, planId)).toMatchObject({ status: 'completed', files: 2, error: null });
  });
});
