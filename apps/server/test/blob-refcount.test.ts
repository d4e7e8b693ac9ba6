import fs from 'node:fs';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TransferJobs } from '../src/modules/transfer/transfer.jobs.js';
import { TransferRepo } from '../src/modules/transfer/transfer.repo.js';
import { blobKeyOf } from '../src/storage/blob-store.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

const HOUR_MS = 3600_000;

describeEachDialect('blob reference counts across crashes on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;
  let repo: TransferRepo;
  let jobs: TransferJobs;
  const root = '/참조';

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    expect((await call(server, apiCalls.folder_create, { token, body: { name: root.slice(1), path: '/', backend: 'server' } })).status).toBe(200);
    repo = new TransferRepo(server.app.db);
    jobs = new TransferJobs(repo, server.app.blobStores, server.app.log);
  });
  afterAll(async () => {
    await server?.close();
  });

  const countOf = async (hash: string) =>
    (await server.app.db.selectFrom('blobs').select('ref_count').where('backend', '=', 'server').where('hash', '=', hash).executeTakeFirst())?.ref_count;
  const blobFile = (hash: string) => path.join(server.dataDir, 'blobs', blobKeyOf(hash));
  const remove = async (name: string) => {
    expect((await call(server, apiCalls.file_trash, { token, body: { paths: [`${root}/${name}`] } })).status).toBe(200);
    expect((await call(server, apiCalls.trash_empty, { token })).status).toBe(200);
  };

  it('a completion killed between its pin and its release leaves a count the repair brings back, and the blob is collected', async () => {
    const gone = bytesOf(5000, `gone-${dialect}`);
    const kept = bytesOf(6000, `kept-${dialect}`);
    expect((await upload(server, token, root, 'gone.bin', gone)).status).toBe(200);
    expect((await upload(server, token, root, 'kept.bin', kept)).status).toBe(200);
    // Two completions that died after their pin (the steps after it never ran): one before its
    // node was added, one after.
    await repo.pinBlob('server', sha256(gone), gone.length);
    await repo.pinBlob('server', sha256(kept), kept.length);
    expect([await countOf(sha256(gone)), await countOf(sha256(kept))]).toEqual([2, 2]);
    await remove('gone.bin');
    // The file is gone, the dead pin still counts: the collector alone never frees the blob.
    expect(await countOf(sha256(gone))).toBe(1);
    await jobs.collectUnreferenced();
    expect(fs.existsSync(blobFile(sha256(gone)))).toBe(true);

    // A pin younger than an hour may belong to a completion still running: counted, kept.
    expect(await jobs.repairReferenceCounts(new Date(Date.now() - HOUR_MS))).toBe(0);
    // Once the dead pins are old, the repair drops them and sets each count to its references.
    expect(await jobs.repairReferenceCounts(new Date(Date.now() + 1000))).toBe(2);
    expect([await countOf(sha256(gone)), await countOf(sha256(kept))]).toEqual([0, 1]);
    await jobs.collectUnreferenced();
    expect(await countOf(sha256(gone))).toBeUndefined();
    expect(fs.existsSync(blobFile(sha256(gone)))).toBe(false);
    expect(sha256((await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${root}/kept.bin`)}`)).bytes)).toBe(sha256(kept));
  });

  it('a count set wrong by hand is set right, and a repair running during uploads and deletions counts each reference once', async () => {
    const data = bytesOf(7000, `busy-${dialect}`);
    expect((await upload(server, token, root, 'busy-0.bin', data)).status).toBe(200);
    await server.app.db.updateTable('blobs').set({ ref_count: 40 }).where('hash', '=', sha256(data)).execute();
    const names = Array.from({ length: 8 }, (_, i) => `busy-${i + 1}.bin`);
    const uploads = names.map((name) => upload(server, token, root, name, data));
    const repairs = [0, 1, 2].map(() => jobs.repairReferenceCounts(new Date(Date.now() - HOUR_MS)));
    const answers = await Promise.all(uploads);
    await Promise.all(repairs);
    expect(answers.map((a) => a.status)).toEqual(names.map(() => 200));
    // No repair after the burst: the count the repairs left, plus the uploads' own, is exact.
    expect(await countOf(sha256(data))).toBe(9);
    await remove('busy-0.bin');
    const nodes = await server.app.db.selectFrom('nodes').select('id').where('content_hash', '=', sha256(data)).execute();
    expect(nodes).toHaveLength(8);
    expect(await countOf(sha256(data))).toBe(8);
    expect(await jobs.repairReferenceCounts(new Date(Date.now() - HOUR_MS))).toBe(0);
  });
});
