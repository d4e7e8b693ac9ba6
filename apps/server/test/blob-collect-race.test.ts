import { createHash } from 'node:crypto';
import fs from 'node:fs';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TransferJobs } from '../src/modules/transfer/transfer.jobs.js';
import { TransferRepo } from '../src/modules/transfer/transfer.repo.js';
import { type BlobStore, blobKeyOf } from '../src/storage/blob-store.js';
import type { BlobStores } from '../src/storage/blob-stores.js';
import { call, describeEachDialectAndBackend, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

const DAY_MS = 24 * 3600_000;

/** Gives a request time to get as far as it can (no assertion depends on the timing). */
const settle = (ms: number) => new Promise<void>((resolve) => setTimeout(resolve, ms));

/**
 * The server's stores, except that deleting a blob first awaits `beforeDelete(key)`: the
 * collector stays between "decided to delete" and "bytes deleted" for as long as the test wants.
 */
function storesDeletingVia(stores: BlobStores, beforeDelete: (key: string) => Promise<void>): BlobStores {
  const hooked = (store: BlobStore) => {
    const wrapper = Object.create(store) as BlobStore;
    wrapper.delete = async (key: string) => {
      await beforeDelete(key);
      await store.delete(key);
    };
    return wrapper;
  };
  return {
    forBackend: async (backend: string) => {
      const store = await stores.forBackend(backend);
      return store && hooked(store);
    },
    local: async () => hooked(await stores.local()),
    cloud: async () => {
      const store = await stores.cloud();
      return store && hooked(store);
    },
  } as unknown as BlobStores;
}

const s3Server = useS3();

describeEachDialectAndBackend('blob collection racing an upload of the same content on $dialect, $backend backend', (dialect, backend) => {
  let server: TestServer;
  let token: string;
  let repo: TransferRepo;
  const root = `/수거 ${backend}`;

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    token = (await setupMaster(server)).token;
    if (backend === 'cloud') {
      expect((await call(server, apiCalls.admin_mode, { token, body: { password: GOOD_PASSWORD } })).status).toBe(200);
      expect((await call(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket: await s3Server().bucket() } } })).status).toBe(200);
    }
    expect((await call(server, apiCalls.folder_create, { token, body: { name: root.slice(1), path: '/', backend } })).status).toBe(200);
    repo = new TransferRepo(server.app.db);
  });
  afterAll(async () => {
    await server?.close();
  });

  const blobFile = (hash: string) => path.join(server.dataDir, 'blobs', blobKeyOf(hash));
  /** SHA-256 of the bytes the store holds under the blob key of `hash`. */
  const storedHash = async (hash: string) => {
    const digest = createHash('sha256');
    for await (const piece of await (await server.app.blobStores.forBackend(backend))!.get(blobKeyOf(hash))) digest.update(piece);
    return digest.digest('hex');
  };
  const download = (name: string) => fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${root}/${name}`)}`);
  const remove = async (name: string) => {
    expect((await call(server, apiCalls.file_trash, { token, body: { paths: [`${root}/${name}`] } })).status).toBe(200);
    expect((await call(server, apiCalls.trash_empty, { token })).status).toBe(200);
  };
  /** The file downloads as exactly `data`, and the blob file under its hash holds exactly that hash's bytes. */
  const expectIntact = async (name: string, data: Buffer) => {
    const answer = await download(name);
    expect(answer.status).toBe(200);
    expect(sha256(answer.bytes)).toBe(sha256(data));
    expect(await storedHash(sha256(data))).toBe(sha256(data));
  };

  /**
   * Ways a blob's bytes become the collector's: unreferenced (count 0), or without a row
   * at all and old (on the server's disk, where the test can age a file).
   */
  const collectors = {
    'unreferenced blobs': {
      prepare: async (name: string) => remove(name),
      collect: (jobs: TransferJobs) => jobs.collectUnreferenced(),
    },
    'orphan blob files': {
      prepare: async (name: string, hash: string) => {
        await remove(name);
        // A crash between the bytes and the row: bytes no row names, a day old.
        await server.app.db.deleteFrom('blobs').where('backend', '=', 'server').where('hash', '=', hash).execute();
        const old = new Date(Date.now() - 2 * DAY_MS);
        fs.utimesSync(blobFile(hash), old, old);
      },
      collect: (jobs: TransferJobs) => jobs.collectOrphans(new Date(Date.now() - DAY_MS)),
    },
  };

  for (const [kind, collector] of Object.entries(collectors)) {
    if (backend === 'cloud' && kind !== 'unreferenced blobs') continue;
    it(`an upload completing while the ${kind} collector is about to delete the same content keeps its bytes`, async () => {
      const data = bytesOf(5000, `${kind}-${dialect}-${backend}`);
      const hash = sha256(data);
      const first = `first-${kind}.bin`;
      const second = `second-${kind}.bin`;
      expect((await upload(server, token, root, first, data)).status).toBe(200);
      await collector.prepare(first, hash);

      let entered!: () => void;
      const deleting = new Promise<void>((resolve) => (entered = resolve));
      let release!: () => void;
      const released = new Promise<void>((resolve) => (release = resolve));
      const jobs = new TransferJobs(
        repo,
        storesDeletingVia(server.app.blobStores, async (key) => {
          if (key !== blobKeyOf(hash)) return;
          entered();
          await released;
        }),
        server.app.log,
      );
      const collecting = collector.collect(jobs);
      await deleting;
      // The collector has decided and holds the bytes' deletion; the same content arrives now.
      const uploading = upload(server, token, root, second, data);
      await Promise.race([uploading, settle(1500)]);
      release();
      await collecting;
      expect((await uploading).status).toBe(200);
      await expectIntact(second, data);
    });
  }

  it('20 rounds of upload, deletion and collection racing new uploads of the same content leave every live file whole', async () => {
    const slowDeletes = new TransferJobs(
      repo,
      storesDeletingVia(server.app.blobStores, () => settle(20)),
      server.app.log,
    );
    const live: { name: string; data: Buffer }[] = [];
    for (let round = 0; round < 20; round++) {
      const data = bytesOf(3000 + round, `burst-${dialect}-${backend}-${round}`);
      const gone = `burst-gone-${round}.bin`;
      const kept = `burst-kept-${round}.bin`;
      expect((await upload(server, token, root, gone, data)).status).toBe(200);
      const [, answer] = await Promise.all([
        remove(gone).then(() => slowDeletes.collectUnreferenced()),
        upload(server, token, root, kept, data),
        slowDeletes.collectUnreferenced(),
      ]);
      expect(answer.status).toBe(200);
      live.push({ name: kept, data });
    }
    await slowDeletes.collectUnreferenced();
    for (const { name, data } of live) await expectIntact(name, data);
  });
});
