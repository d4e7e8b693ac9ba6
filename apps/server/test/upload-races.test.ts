import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import path from 'node:path';
import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { blobKeyOf } from '../src/storage/blob-store.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, type ChunkRequest, chunkMultipart, fetchBytes, sendChunk, sha256 } from './transfer-helpers.js';

/** A chunk request whose body is sent in two steps: everything up to half the file part now, the rest on demand (raw: a stalled body is the point). */
function stalledChunk(server: TestServer, token: string, chunk: ChunkRequest) {
  const { contentType, head, tail } = chunkMultipart(chunk);
  const half = Math.floor(chunk.bytes.length / 2);
  const url = new URL('/api/file/upload', server.url);
  const request = http.request(url, {
    method: 'POST',
    agent: false,
    headers: {
      authorization: `Bearer ${token}`,
      'content-type': contentType,
      'content-length': String(Buffer.byteLength(head) + chunk.bytes.length + Buffer.byteLength(tail)),
    },
  });
  const answer = new Promise<{ status: number; body: any }>((resolve, reject) => {
    request.on('response', (res) => {
      const parts: Buffer[] = [];
      res.on('data', (p: Buffer) => parts.push(p));
      res.on('end', () => resolve({ status: res.statusCode!, body: JSON.parse(Buffer.concat(parts).toString() || 'null') }));
    });
    request.on('error', reject);
  });
  request.write(head);
  request.write(chunk.bytes.subarray(0, half));
  return {
    answer,
    finish: () => {
      request.end(Buffer.concat([chunk.bytes.subarray(half), Buffer.from(tail)]));
      return answer;
    },
  };
}

/** 400 MiB go through the server in each burst test: room for a busy machine. */
const BURST_TIMEOUT_MS = 300_000;

/** Gives the server time to read what a stalled request sent so far (no assertion depends on the timing). */
const settle = () => new Promise((resolve) => setTimeout(resolve, 400));

describeEachDialect('uploads under concurrency on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;
  const root = '/경합';

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    await call(server, apiCalls.folder_create, { token, body: { name: root.slice(1), path: '/', backend: 'server' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const blobFile = (hash: string) => path.join(server.dataDir, 'blobs', blobKeyOf(hash));
  const download = (name: string) => fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${root}/${name}`)}`);
  const chunkOf = (
    name: string,
    data: Buffer,
    index: number,
    bytes = data.subarray(index * CHUNK_SIZE, (index + 1) * CHUNK_SIZE),
    extra: Partial<ChunkRequest> = {},
  ): ChunkRequest => ({
    path: root,
    fileName: name,
    fileSize: data.length,
    chunkIndex: index,
    totalChunks: Math.ceil(data.length / CHUNK_SIZE),
    bytes,
    ...extra,
  });

  it('a chunk sent again while the upload completes cannot change the committed blob', async () => {
    const data = bytesOf(CHUNK_SIZE + 4096, `poison-${dialect}`);
    const garbage = bytesOf(CHUNK_SIZE, `garbage-${dialect}`);
    expect((await sendChunk(server, token, chunkOf('target.bin', data, 0))).status).toBe(200);
    // A second write of chunk 0 with other bytes, still open while chunk 1 completes the upload.
    const stalled = stalledChunk(server, token, chunkOf('target.bin', data, 0, garbage));
    await settle();
    const done = await sendChunk(server, token, chunkOf('target.bin', data, 1));
    expect([done.status, done.body.complete]).toEqual([200, true]);
    const late = await stalled.finish();
    expect([late.status, late.body.message]).toEqual([409, 'upload_chunk_invalid']);

    // The blob under the content's hash holds exactly that content, and so does the file.
    const hash = sha256(data);
    expect(sha256(fs.readFileSync(blobFile(hash)))).toBe(hash);
    expect(sha256((await download('target.bin')).bytes)).toBe(hash);
    // Anyone uploading the real content later is deduplicated onto the right bytes.
    expect((await sendChunk(server, token, chunkOf('later.bin', data, 0))).status).toBe(200);
    expect((await sendChunk(server, token, chunkOf('later.bin', data, 1))).body.complete).toBe(true);
    expect(sha256((await download('later.bin')).bytes)).toBe(hash);
  });

  it('a second writer of a chunk still being written waits for the first, whose bytes are the file, and is refused when its own differ', async () => {
    const data = bytesOf(CHUNK_SIZE + 4096, `first-${dialect}`);
    const other = bytesOf(4096, `other-${dialect}`);
    expect((await sendChunk(server, token, chunkOf('writers.bin', data, 0))).status).toBe(200);
    const stalled = stalledChunk(server, token, chunkOf('writers.bin', data, 1, other));
    await settle();
    const second = sendChunk(server, token, chunkOf('writers.bin', data, 1));
    await settle();
    const first = await stalled.finish();
    expect([first.status, first.body.complete]).toEqual([200, true]);
    // Compared with the recorded chunk (other bytes), or, when the upload completed first, a
    // new upload of which this is the only chunk: refused either way, and the file is untouched.
    const late = await second;
    expect(late.status).toBe(409);
    expect(['upload_chunk_invalid', 'upload_incomplete']).toContain(late.body.message);

    const expected = Buffer.concat([data.subarray(0, CHUNK_SIZE), other]);
    expect(sha256((await download('writers.bin')).bytes)).toBe(sha256(expected));
    expect(sha256(fs.readFileSync(blobFile(sha256(expected))))).toBe(sha256(expected));
  });

  /** Every answer a 200 or a 4xx; exactly one client's bytes stored under the name. */
  async function expectOneWhole(name: string, clients: Buffer[], answers: { status: number }[][]) {
    const statuses = answers.flat().map((a) => a.status);
    expect(statuses.filter((s) => s >= 500)).toEqual([]);
    expect(statuses.every((s) => s === 200 || (s >= 400 && s < 500))).toBe(true);
    const stored = sha256((await download(name)).bytes);
    const owners = clients.map((c, i) => (sha256(c) === stored ? i : -1)).filter((i) => i >= 0);
    expect(owners).toHaveLength(1);
    // The client whose bytes were stored is the one told so.
    const completed = answers.map((a) => a.some((r) => (r as { body?: { complete?: boolean } }).body?.complete === true));
    expect(completed.filter(Boolean)).toHaveLength(1);
    expect(completed[owners[0]!]).toBe(true);
  }

  it(
    '20 uploads of one name and size at once, each with its upload id and its chunks in parallel: one whole file, the rest 409',
    async () => {
      const size = CHUNK_SIZE + 64 * 1024;
      const clients = Array.from({ length: 20 }, (_, i) => bytesOf(size, `with-id-${dialect}-${i}`));
      const answers = await Promise.all(
        clients.map((data) => {
          const uploadId = randomBytes(16).toString('base64url');
          return Promise.all([0, 1].map((i) => sendChunk(server, token, chunkOf('same.bin', data, i, undefined, { fields: { uploadId } }))));
        }),
      );
      await expectOneWhole('same.bin', clients, answers);
      // The other 19 met the name taken, at completion or, once the file was there, at a chunk
      // (refused before its bytes were stored); a last chunk that overtook its client's first one was
      // told the upload is not complete yet (and the first completed it).
      const refused = answers
        .flat()
        .filter((a) => a.status === 409)
        .map((a) => a.body.message);
      const told = answers.filter((a) => a.some((r) => r.status === 409 && r.body.message === 'file_exists_warning'));
      expect(told).toHaveLength(19);
      expect(refused.every((m) => m === 'file_exists_warning' || m === 'upload_incomplete')).toBe(true);
    },
    BURST_TIMEOUT_MS,
  );

  it(
    '20 uploads of one name and size at once without upload ids, each in order and stopping at its first refusal: one whole file',
    async () => {
      const size = CHUNK_SIZE + 64 * 1024;
      const clients = Array.from({ length: 20 }, (_, i) => bytesOf(size, `no-id-${dialect}-${i}`));
      const answers = await Promise.all(
        clients.map(async (data) => {
          const sent = [];
          for (const i of [0, 1]) {
            const res = await sendChunk(server, token, chunkOf('same-no-id.bin', data, i));
            sent.push(res);
            if (res.status !== 200) break;
          }
          return sent;
        }),
      );
      await expectOneWhole('same-no-id.bin', clients, answers);
      expect(await server.app.db.selectFrom('upload_sessions').selectAll().where('file_name', '=', 'same-no-id.bin').execute()).toEqual([]);
    },
    BURST_TIMEOUT_MS,
  );

  it('an upload id that is not 16–64 of A–Z a–z 0–9 _ - is refused; the status call takes the id', async () => {
    const data = bytesOf(100, `id-${dialect}`);
    const bad = await sendChunk(server, token, chunkOf('id.bin', data, 0, undefined, { fields: { uploadId: '../../etc' } }));
    expect([bad.status, bad.body.message]).toEqual([400, 'upload_chunk_invalid']);
    const big = bytesOf(CHUNK_SIZE + 1, `id-big-${dialect}`);
    const uploadId = randomBytes(16).toString('hex');
    expect((await sendChunk(server, token, chunkOf('id.bin', big, 0, undefined, { fields: { uploadId } }))).status).toBe(200);
    const query = (id?: string) => ({ path: root, fileName: 'id.bin', fileSize: big.length, uploadId: id });
    expect((await call(server, apiCalls.file_upload_status, { token, query: query(uploadId) })).body.received).toEqual([0]);
    expect((await call(server, apiCalls.file_upload_status, { token, query: query() })).body.received).toEqual([]);
  });

  it('a name sent in NFD is stored and resumed as its NFC form', async () => {
    const nfd = '보고서.bin'.normalize('NFD');
    const data = bytesOf(CHUNK_SIZE + 10, `nfc-${dialect}`);
    expect((await sendChunk(server, token, chunkOf(nfd, data, 0))).status).toBe(200);
    const status = await call(server, apiCalls.file_upload_status, { token, query: { path: root, fileName: '보고서.bin', fileSize: data.length } });
    expect(status.body.received).toEqual([0]);
    const done = await sendChunk(server, token, chunkOf('보고서.bin', data, 1));
    expect(done.body.file.name).toBe('보고서.bin');
    expect(sha256((await download('보고서.bin')).bytes)).toBe(sha256(data));
  });
});
