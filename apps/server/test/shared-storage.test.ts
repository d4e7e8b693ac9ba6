import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { IDENTITY_FILE } from '../src/storage/blob-marker.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, sendChunk, sha256 } from './transfer-helpers.js';

/** A second server process as another machine runs it: its own data directory, the first one's database. */
async function startSecond(first: TestServer): Promise<{ app: FastifyInstance; url: string; dataDir: string; close: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-second-'));
  const database = first.config.database;
  const config = loadConfig({
    BOGWAN_DATA_DIR: dataDir,
    BOGWAN_WEB_DIR: path.join(dataDir, 'no-web-build'),
    BOGWAN_SECRET: first.config.secret ?? fs.readFileSync(path.join(first.dataDir, 'secret.key'), 'utf8').trim(),
    LOG_LEVEL: 'silent',
    DATABASE_URL: database.dialect === 'postgres' ? database.url : `sqlite:${database.file}`,
  });
  let app: FastifyInstance;
  try {
    app = await buildApp(config);
  } catch (error) {
    fs.rmSync(dataDir, { recursive: true, force: true });
    throw error;
  }
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  return {
    app,
    url: `http://127.0.0.1:${address.port}`,
    dataDir,
    close: async () => {
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

describeEachDialect('shared server storage on $dialect', (dialect) => {
  let first: TestServer;
  let token: string;

  beforeAll(async () => {
    first = await startServer(dialect);
    token = (await setupMaster(first)).token;
  });
  afterAll(async () => {
    await first?.close();
  });

  it('a second process whose server directory is its own refuses to start, naming server.path', async () => {
    await expect(startSecond(first)).rejects.toThrow(/server\.path.*BOGWAN_DATA_DIR/s);
    // A directory of another installation is refused the same way.
    const other = await startServer(dialect);
    try {
      const put = await callRefused(first, apiCalls.storage_setting_update, { token, body: { server: { path: path.join(other.dataDir, 'blobs') } } });
      expect([put.status, put.body.message]).toEqual([400, 'invalid_path']);
    } finally {
      await other.close();
    }
  });

  it('with one shared directory both start, an upload spread over both completes, and health names a lost directory', async () => {
    const shared = path.join(fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-shared-')), 'root');
    expect((await call(first, apiCalls.storage_setting_update, { token, body: { server: { path: shared } } })).status).toBe(200);
    const second = await startSecond(first);
    try {
      expect((await call(first, apiCalls.folder_create, { token, body: { name: '공유', path: '/', backend: 'server' } })).status).toBe(200);
      const data = bytesOf(3 * CHUNK_SIZE + 777, `spread-${dialect}`);
      const chunk = (i: number) => ({
        path: '/공유',
        fileName: 'spread.bin',
        fileSize: data.length,
        chunkIndex: i,
        totalChunks: 4,
        bytes: data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
      });
      const secondTarget = { url: second.url, request: first.request };
      // Chunks alternate between the two processes; the last lands on the second.
      for (const i of [0, 1, 2]) expect((await sendChunk(i % 2 === 0 ? first : secondTarget, token, chunk(i))).status).toBe(200);
      const done = await sendChunk(secondTarget, token, chunk(3));
      expect([done.status, done.body.complete]).toEqual([200, true]);
      const downloaded = await fetchBytes(first, token, `/api/file/download?path=${encodeURIComponent('/공유/spread.bin')}`);
      expect(sha256(downloaded.bytes)).toBe(sha256(data));

      // Ready (200) and not ready (503, with its reason) read alike: raw, for the status and body of both.
      const health = async (url: string) => {
        const res = await fetch(`${url}/api/health`);
        return { status: res.status, body: (await res.json()) as { status: string; reason?: string } };
      };
      expect(await health(second.url)).toEqual({ status: 200, body: { status: 'ok' } });
      // The shared directory disappears from under the processes (an unmounted volume): not ready, and why.
      fs.renameSync(path.join(shared, IDENTITY_FILE), path.join(shared, `${IDENTITY_FILE}.away`));
      expect(await health(second.url)).toEqual({ status: 503, body: { status: 'unavailable', reason: 'server_path_not_shared' } });
      expect((await health(first.url)).body.reason).toBe('server_path_not_shared');
      fs.renameSync(path.join(shared, `${IDENTITY_FILE}.away`), path.join(shared, IDENTITY_FILE));
      expect((await health(first.url)).status).toBe(200);
    } finally {
      await second.close();
    }
  });
});
