import fs from 'node:fs';
import path from 'node:path';
import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TransferJobs } from '../src/modules/transfer/transfer.jobs.js';
import { TransferRepo } from '../src/modules/transfer/transfer.repo.js';
import { blobKeyOf } from '../src/storage/blob-store.js';
import { namesIn, signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialectAndBackend, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { bytesOf, fetchBytes, readZip, sendChunk, sha256, upload } from './transfer-helpers.js';
import { recordsOf } from './audit-actions-helpers.js';

const MiB = 1024 * 1024;

const s3Server = useS3();

describeEachDialectAndBackend('upload and download on $dialect, $backend backend', (dialect, backend) => {
  let server: TestServer;
  let token: string;
  let root: string;

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    token = (await setupMaster(server)).token;
    if (backend === 'cloud') {
      const locked = await callRefused(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket: 'no-such-bucket' } } });
      expect(locked).toMatchObject({ status: 403, body: { message: 'admin_mode_required' } });
      expect((await call(server, apiCalls.admin_mode, { token, body: { password: GOOD_PASSWORD } })).body).toEqual({ success: true });
      const missing = await callRefused(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket: 'no-such-bucket' } } });
      expect(missing.status).toBe(400);
      expect(missing.body.message).toBe('cloud_bucket_missing');
      const bucket = await s3Server().bucket();
      const saved = await call(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket } } });
      expect(saved.status).toBe(200);
      expect(saved.body.cloud).toEqual({ bucket });
    }
    root = `/공유 ${backend}`;
    const created = await call(server, apiCalls.folder_create, { token, body: { name: root.slice(1), path: '/', backend } });
    expect(created.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const store = () => server.app.blobStores.forBackend(backend).then((s) => s!);
  const sessions = () => server.app.db.selectFrom('upload_sessions').selectAll().execute();
  const staged = async () => {
    const found: string[] = [];
    for await (const s of (await store()).staging.list()) found.push(s.uploadId);
    return found;
  };

  it('uploads 25 MiB in three chunks out of order and downloads the same bytes', async () => {
    const data = bytesOf(25 * MiB, `big-${backend}`);
    const name = '보고서 2026 "최종".bin';
    const chunk = (i: number) => ({
      path: root,
      fileName: name,
      fileSize: data.length,
      chunkIndex: i,
      totalChunks: 3,
      bytes: data.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
    });
    const third = await sendChunk(server, token, { ...chunk(2), isLastChunk: false });
    expect(third.status).toBe(200);
    expect(third.body).toEqual({ complete: false, received: 1 });
    expect((await sendChunk(server, token, chunk(0))).body).toEqual({ complete: false, received: 2 });
    expect(await namesIn(server, token, root)).not.toContain(name);

    const done = await sendChunk(server, token, chunk(1));
    expect(done.status).toBe(200);
    expect(done.body.complete).toBe(true);
    expect(done.body.file).toMatchObject({ name, size: data.length, folder: false, path: `${root}/${name}` });
    expect(await namesIn(server, token, root)).toContain(name);
    expect(await sessions()).toEqual([]);
    expect(await staged()).toEqual([]);

    const url = `/api/file/download?path=${encodeURIComponent(`${root}/${name}`)}`;
    const res = await fetchBytes(server, token, url);
    expect(res.status).toBe(200);
    expect(sha256(res.bytes)).toBe(sha256(data));
    expect(res.headers.get('content-length')).toBe(String(data.length));
    expect(res.headers.get('etag')).toBe(`"${sha256(data)}"`);
    expect(res.headers.get('accept-ranges')).toBe('bytes');
    expect(res.headers.get('last-modified')).toMatch(/GMT$/);
    const disposition = res.headers.get('content-disposition')!;
    expect(disposition).toMatch(/^attachment; filename="[ -~]+"; filename\*=UTF-8''/);
    expect(decodeURIComponent(disposition.split("UTF-8''")[1]!)).toBe(name);

    const blob = await server.app.db.selectFrom('blobs').selectAll().where('hash', '=', sha256(data)).executeTakeFirstOrThrow();
    expect(blob).toMatchObject({ backend, size: data.length, ref_count: 1 });
    expect(await (await store()).stat(blobKeyOf(sha256(data)))).toEqual({ size: data.length });

    const recent = await call(server, apiCalls.file_recent, { token });
    expect(JSON.stringify(recent.body)).toContain(JSON.stringify(name).slice(1, -1));
    // The download is recorded before its first byte, the upload with the file.
    const actions = (await recordsOf(server, { actions: ['file.upload', 'file.download'] }))
      .filter((r) => r.targetPath === `${root}/${name}`)
      .map((r) => r.action);
    expect(actions).toEqual(expect.arrayContaining(['file.upload', 'file.download']));
  });

  it('hashes while chunks arrive, in order or not, falls back to one full read when in doubt, and dedupes', async () => {
    const data = bytesOf(2 * CHUNK_SIZE + 1000, `running-${backend}`);
    const chunk = (name: string, i: number, bytes = data) => ({
      path: root,
      fileName: name,
      fileSize: bytes.length,
      chunkIndex: i,
      totalChunks: 3,
      isLastChunk: false,
      bytes: bytes.subarray(i * CHUNK_SIZE, (i + 1) * CHUNK_SIZE),
    });
    const staging = (await store()).staging;
    // In a bucket, committing new content streams the parts through `read` too (once here: later uploads dedupe).
    const commitReads = backend === 'cloud' ? 1 : 0;
    let fullReads = 0;
    const read = staging.read.bind(staging);
    staging.read = (...args) => {
      fullReads++;
      return read(...args);
    };
    const blobRow = () => server.app.db.selectFrom('blobs').selectAll().where('backend', '=', backend).where('hash', '=', sha256(data)).executeTakeFirst();
    try {
      // In order: each chunk goes into the hash as it streams; no read of the whole file.
      for (const i of [0, 1, 2]) expect((await sendChunk(server, token, chunk('in order.bin', i))).status).toBe(200);
      expect(fullReads).toBe(commitReads);
      expect(await blobRow()).toMatchObject({ size: data.length, ref_count: 1 });

      // Out of order: early chunks are read back once the gap closes; same hash, stored once.
      for (const i of [2, 1, 0]) expect((await sendChunk(server, token, chunk('out of order.bin', i))).status).toBe(200);
      expect(fullReads).toBe(commitReads);
      expect(await blobRow()).toMatchObject({ ref_count: 2 });

      // A restart loses the hash in memory: the completion still answers the right one.
      expect((await sendChunk(server, token, chunk('restarted.bin', 0))).status).toBe(200);
      const [session] = await sessions();
      server.app.uploads.hashes.forget(session!.id);
      for (const i of [1, 2]) expect((await sendChunk(server, token, chunk('restarted.bin', i))).status).toBe(200);
      expect(await blobRow()).toMatchObject({ ref_count: 3 });

      // Chunk 0 sent again after it was recorded: other bytes are refused and change nothing,
      // the same bytes are accepted; the hash kept while the chunks arrived still holds.
      const other = Buffer.from(data);
      other.fill(7, 0, 100);
      expect((await sendChunk(server, token, chunk('resent.bin', 0))).status).toBe(200);
      const refused = await sendChunk(server, token, chunk('resent.bin', 0, other));
      expect([refused.status, refused.body.message]).toEqual([409, 'upload_chunk_invalid']);
      expect((await sendChunk(server, token, chunk('resent.bin', 0))).body).toEqual({ complete: false, received: 1 });
      for (const i of [1, 2]) expect((await sendChunk(server, token, chunk('resent.bin', i))).status).toBe(200);
      expect(fullReads).toBe(commitReads);
      expect(await blobRow()).toMatchObject({ ref_count: 4 });

      for (const name of ['in order.bin', 'out of order.bin', 'restarted.bin', 'resent.bin']) {
        const res = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${root}/${name}`)}`);
        expect(sha256(res.bytes)).toBe(sha256(data));
        expect(res.headers.get('etag')).toBe(`"${sha256(data)}"`);
      }
      expect(server.app.uploads.hashes.size).toBe(0);
      expect(await sessions()).toEqual([]);
      expect(await staged()).toEqual([]);
    } finally {
      staging.read = read;
    }
  });

  it('answers ranges (206, 416), ETag revalidation (304), and stores identical content once', async () => {
    const data = bytesOf(100_000, `range-${backend}`);
    expect((await upload(server, token, root, 'range.bin', data)).status).toBe(200);
    const url = `/api/file/download?path=${encodeURIComponent(`${root}/range.bin`)}`;
    const part = await fetchBytes(server, token, url, { range: 'bytes=1000-1999' });
    expect(part.status).toBe(206);
    expect(part.headers.get('content-range')).toBe(`bytes 1000-1999/${data.length}`);
    expect(part.bytes.equals(data.subarray(1000, 2000))).toBe(true);
    const tail = await fetchBytes(server, token, url, { range: 'bytes=-10' });
    expect(tail.status).toBe(206);
    expect(tail.bytes.equals(data.subarray(data.length - 10))).toBe(true);
    const beyond = await fetchBytes(server, token, url, { range: `bytes=${data.length}-` });
    expect(beyond.status).toBe(416);
    expect(beyond.headers.get('content-range')).toBe(`bytes */${data.length}`);
    const cached = await fetchBytes(server, token, url, { 'if-none-match': `"${sha256(data)}"` });
    expect(cached.status).toBe(304);
    expect(cached.bytes.length).toBe(0);

    expect((await upload(server, token, root, 'range copy.bin', data)).status).toBe(200);
    const blob = await server.app.db.selectFrom('blobs').selectAll().where('hash', '=', sha256(data)).executeTakeFirstOrThrow();
    expect(blob.ref_count).toBe(2);
    const keys: string[] = [];
    for await (const b of (await store()).list('')) if (b.key.endsWith(sha256(data))) keys.push(b.key);
    expect(keys).toEqual([blobKeyOf(sha256(data))]);
  });

  it('resumes: the status lists received chunks and the rest completes the file', async () => {
    const data = bytesOf(CHUNK_SIZE + 5, `resume-${backend}`);
    const base = { path: root, fileName: 'resume.bin', fileSize: data.length, totalChunks: 2 };
    expect((await sendChunk(server, token, { ...base, chunkIndex: 0, bytes: data.subarray(0, CHUNK_SIZE) })).status).toBe(200);
    const query = { path: root, fileName: 'resume.bin', fileSize: data.length };
    const status = await call(server, apiCalls.file_upload_status, { token, query });
    expect(status.body).toEqual({ received: [0], chunkSize: CHUNK_SIZE });
    // A chunk sent again with the same bytes is accepted (nothing is written again).
    expect((await sendChunk(server, token, { ...base, chunkIndex: 0, bytes: data.subarray(0, CHUNK_SIZE) })).body).toEqual({ complete: false, received: 1 });
    const done = await sendChunk(server, token, { ...base, chunkIndex: 1, bytes: data.subarray(CHUNK_SIZE) });
    expect(done.body.complete).toBe(true);
    expect((await call(server, apiCalls.file_upload_status, { token, query })).body).toEqual({ received: [], chunkSize: CHUNK_SIZE });
    const res = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${root}/resume.bin`)}`);
    expect(sha256(res.bytes)).toBe(sha256(data));
  });

  it('refuses a chunk out of range, an oversized chunk and a wrong total size', async () => {
    const base = { path: root, fileName: 'bad.bin' };
    const outOfRange = await sendChunk(server, token, { ...base, fileSize: 10, chunkIndex: 1, totalChunks: 1, bytes: Buffer.alloc(10) });
    expect([outOfRange.status, outOfRange.body.message]).toEqual([400, 'upload_chunk_invalid']);

    const oversized = await sendChunk(server, token, { ...base, fileSize: 2 * CHUNK_SIZE, chunkIndex: 0, totalChunks: 2, bytes: Buffer.alloc(CHUNK_SIZE + 1) });
    expect([oversized.status, oversized.body.message]).toEqual([400, 'upload_chunk_invalid']);
    const short = await sendChunk(server, token, { ...base, fileSize: 2 * CHUNK_SIZE, chunkIndex: 0, totalChunks: 2, bytes: Buffer.alloc(100) });
    expect([short.status, short.body.message]).toEqual([400, 'upload_chunk_invalid']);

    const wrongCount = await sendChunk(server, token, { ...base, fileSize: 100, chunkIndex: 0, totalChunks: 2, bytes: Buffer.alloc(100) });
    expect([wrongCount.status, wrongCount.body.message]).toEqual([400, 'upload_size_mismatch']);
    const shortLast = await sendChunk(server, token, { ...base, fileSize: 100, chunkIndex: 0, totalChunks: 1, bytes: Buffer.alloc(60) });
    expect([shortLast.status, shortLast.body.message]).toEqual([400, 'upload_size_mismatch']);
    const longLast = await sendChunk(server, token, { ...base, fileSize: 100, chunkIndex: 0, totalChunks: 1, bytes: Buffer.alloc(160) });
    expect([longLast.status, longLast.body.message]).toEqual([400, 'upload_chunk_invalid']);

    const fields = await sendChunk(server, token, {
      ...base,
      fileSize: 10,
      chunkIndex: 0,
      totalChunks: 1,
      bytes: Buffer.alloc(10),
      fields: { chunkIndex: '-1' },
    });
    expect([fields.status, fields.body.message]).toEqual([400, 'upload_chunk_invalid']);
    expect(await namesIn(server, token, root)).not.toContain('bad.bin');
    const chunks = await server.app.db.selectFrom('upload_chunks').selectAll().execute();
    expect(chunks).toEqual([]);
  });

  it('answers upload_incomplete for a last chunk with one missing, and completes when it arrives', async () => {
    const data = bytesOf(CHUNK_SIZE + 10, `gap-${backend}`);
    const base = { path: root, fileName: 'gap.bin', fileSize: data.length, totalChunks: 2 };
    const last = await sendChunk(server, token, { ...base, chunkIndex: 1, isLastChunk: true, bytes: data.subarray(CHUNK_SIZE) });
    expect([last.status, last.body.message]).toEqual([409, 'upload_incomplete']);
    expect(await namesIn(server, token, root)).not.toContain('gap.bin');
    const first = await sendChunk(server, token, { ...base, chunkIndex: 0, isLastChunk: false, bytes: data.subarray(0, CHUNK_SIZE) });
    expect(first.body.complete).toBe(true);
    expect(await namesIn(server, token, root)).toContain('gap.bin');
  });

  it('lets exactly one of two simultaneous uploads of one name win, leaving nothing of the other', async () => {
    const before = await staged();
    const a = bytesOf(3000, `twin-a-${backend}`);
    const b = bytesOf(4000, `twin-b-${backend}`);
    const answers = await Promise.all([upload(server, token, root, 'twin.txt', a), upload(server, token, root, 'twin.txt', b)]);
    expect(answers.map((r) => `${r.status} ${r.body.message ?? ''}`).sort()).toEqual(['200 ', '409 file_exists_warning']);
    expect(answers.find((r) => r.status === 409)!.body.message).toBe('file_exists_warning');
    const winner = answers[0]!.status === 200 ? a : b;
    const loser = winner === a ? b : a;
    const res = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${root}/twin.txt`)}`);
    expect(sha256(res.bytes)).toBe(sha256(winner));
    expect(await sessions()).toEqual([]);
    expect(await staged()).toEqual(before);
    const loserRow = await server.app.db.selectFrom('blobs').selectAll().where('hash', '=', sha256(loser)).executeTakeFirst();
    expect(loserRow).toBeUndefined();
    expect(await (await store()).stat(blobKeyOf(sha256(loser)))).toBeNull();
  });

  it('refuses an upload over the root volume before storing a byte', async () => {
    const before = await staged();
    const quotaRoot = `/quota_${backend}`;
    await call(server, apiCalls.folder_create, { token, body: { name: quotaRoot.slice(1), path: '/', backend } });
    const set = await call(server, apiCalls.root_volume, { token, body: { path: quotaRoot, volume: 5000 } });
    expect(set.status).toBe(200);
    const over = await sendChunk(server, token, {
      path: quotaRoot,
      fileName: 'big.bin',
      fileSize: 6000,
      chunkIndex: 0,
      totalChunks: 1,
      bytes: Buffer.alloc(6000),
    });
    expect([over.status, over.body.message]).toEqual([413, 'volume_exceeded_warning']);
    expect(await sessions()).toEqual([]);
    expect(await staged()).toEqual(before);
    expect((await upload(server, token, quotaRoot, 'fits.bin', bytesOf(4000, 'fits'))).status).toBe(200);
    const second = await upload(server, token, quotaRoot, 'fits too.bin', bytesOf(4000, 'fits too'));
    expect([second.status, second.body.message]).toEqual([413, 'volume_exceeded_warning']);
  });

  it('zips a folder and a selection, streamed, with Korean names in UTF-8', async () => {
    const folder = `${root}/자료`;
    await call(server, apiCalls.folder_create, { token, body: { name: '자료', path: root } });
    await call(server, apiCalls.folder_create, { token, body: { name: '하위', path: folder } });
    const one = Buffer.from('첫 번째 파일');
    const two = bytesOf(50_000, 'zip-two');
    await upload(server, token, folder, '가나다.txt', one);
    await upload(server, token, `${folder}/하위`, 'data.bin', two);
    const res = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(folder)}`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/zip');
    expect(decodeURIComponent(res.headers.get('content-disposition')!.split("UTF-8''")[1]!)).toBe('자료.zip');
    const entries = readZip(res.bytes);
    expect(entries.map((e) => e.name).sort()).toEqual(['자료/', '자료/가나다.txt', '자료/하위/', '자료/하위/data.bin'].sort());
    expect(entries.every((e) => e.utf8)).toBe(true);
    expect(entries.find((e) => e.name === '자료/가나다.txt')!.data.equals(one)).toBe(true);
    expect(sha256(entries.find((e) => e.name === '자료/하위/data.bin')!.data)).toBe(sha256(two));

    const query = [`${folder}/가나다.txt`, `${root}/range.bin`].map((p) => `paths=${encodeURIComponent(p)}`).join('&');
    const selection = await fetchBytes(server, token, `/api/file/download?${query}`);
    expect(selection.status).toBe(200);
    expect(
      readZip(selection.bytes)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['range.bin', '가나다.txt']);
  });

  it('previews HTML and SVG as plain text in a sandbox, images as images', async () => {
    await upload(server, token, root, 'page.html', Buffer.from('<script>parent.alert(1)</script>'));
    await upload(server, token, root, 'logo.svg', Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" onload="alert(1)"/>'));
    await upload(server, token, root, 'pixel.png', bytesOf(64, 'png'));
    for (const name of ['page.html', 'logo.svg']) {
      const res = await fetchBytes(server, token, `/api/file/preview?path=${encodeURIComponent(`${root}/${name}`)}`);
      expect(res.status).toBe(200);
      expect(res.headers.get('content-type')).toBe('text/plain; charset=utf-8');
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
      expect(res.headers.get('content-security-policy')).toBe("sandbox; default-src 'none'; img-src 'self' data:; media-src 'self'; style-src 'unsafe-inline'");
      expect(res.headers.get('cross-origin-resource-policy')).toBe('same-origin');
      expect(res.headers.get('content-disposition')).toMatch(/^inline; /);
    }
    const image = await fetchBytes(server, token, `/api/file/preview?path=${encodeURIComponent(`${root}/pixel.png`)}`, { range: 'bytes=0-9' });
    expect(image.status).toBe(206);
    expect(image.headers.get('content-type')).toBe('image/png');
    expect(image.bytes.length).toBe(10);
    const download = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(`${root}/page.html`)}`);
    expect(download.headers.get('content-type')).toBe('application/octet-stream');
  });

  it('refuses path traversal in every path field', async () => {
    const bad = [`${root}/../x`, `${root}\\x`, `${root}/a\u0000b`, 'relative/x', `${root}/./x`, `${root}//x`];
    for (const p of bad) {
      for (const [url, refuse] of [
        ['download path', () => callRefused(server, apiCalls.file_download, { token, query: { path: p } })],
        ['preview path', () => callRefused(server, apiCalls.file_preview, { token, query: { path: p } })],
        ['upload status path', () => callRefused(server, apiCalls.file_upload_status, { token, query: { path: p, fileName: 'a', fileSize: 1 } })],
        ['download paths', () => callRefused(server, apiCalls.file_download, { token, query: { paths: [p] } })],
      ] as const) {
        const res = await refuse();
        expect([url, p, res.status, res.body.message]).toEqual([url, p, 400, 'invalid_path']);
      }
      const up = await sendChunk(server, token, { path: p, fileName: 'x.txt', fileSize: 1, chunkIndex: 0, totalChunks: 1, bytes: Buffer.alloc(1) });
      expect([p, up.status, up.body.message]).toEqual([p, 400, 'invalid_path']);
    }
    for (const name of ['..', '../x.txt', 'a/b.txt', 'a\\b.txt', '.']) {
      const up = await sendChunk(server, token, { path: root, fileName: name, fileSize: 1, chunkIndex: 0, totalChunks: 1, bytes: Buffer.alloc(1) });
      expect([name, up.status, up.body.message]).toEqual([name, 400, 'invalid_path']);
    }
    // `%2e%2e` in the URL arrives as `..`; in a field it would be a literal (legal, missing) name.
    // Raw: the URL's own encoding is the point (the typed query would encode the `%`).
    const dotted = await server.request('GET', `/api/file/download?path=${encodeURIComponent(root)}/%2e%2e/x`, { token });
    expect([dotted.status, dotted.body.message]).toEqual([400, 'invalid_path']);
    // A root's prefix sibling is another folder.
    const sibling = await callRefused(server, apiCalls.file_download, { token, query: { path: `${root}2/range.bin` } });
    expect(sibling.status).toBe(404);
  });

  it('gives a USER without the permission 403 and stores nothing', async () => {
    const user = await signInAs(server, `user-${backend}@example.com`);
    const file = `${root}/range.bin`;
    expect((await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent(file)}`)).status).toBe(200);
    await server.app.db
      .insertInto('settings')
      .values({
        key: 'permission',
        value: JSON.stringify({ user: ['READ'], admin: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE'] }),
        updated_at: new Date().toISOString(),
      })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: JSON.stringify({ user: ['READ'], admin: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE'] }) }))
      .execute();
    try {
      for (const [url, refuse] of [
        [`download ${file}`, () => callRefused(server, apiCalls.file_download, { token: user.token, query: { path: file } })],
        [`preview ${file}`, () => callRefused(server, apiCalls.file_preview, { token: user.token, query: { path: file } })],
        [`download ${root}`, () => callRefused(server, apiCalls.file_download, { token: user.token, query: { path: root } })],
      ] as const) {
        const res = await refuse();
        expect([url, res.status, res.body.message]).toEqual([url, 403, 'no_access_warning']);
      }
      const up = await sendChunk(server, user.token, { path: root, fileName: 'no.txt', fileSize: 3, chunkIndex: 0, totalChunks: 1, bytes: Buffer.from('abc') });
      expect([up.status, up.body.message]).toEqual([403, 'no_access_warning']);
      expect(await sessions()).toEqual([]);
    } finally {
      await server.app.db.deleteFrom('settings').where('key', '=', 'permission').execute();
    }
  });

  it('cleans up abandoned uploads and unreferenced or orphaned blobs', async () => {
    const jobs = new TransferJobs(new TransferRepo(server.app.db), server.app.blobStores, server.app.log);
    // s3rver (unlike S3) may keep the part of a PUT aborted by a refused chunk; the job removes such parts too.
    await jobs.removeAbandonedUploads(new Date(Date.now() + 60_000));
    const data = bytesOf(CHUNK_SIZE + 1, `abandon-${backend}`);
    await sendChunk(server, token, {
      path: root,
      fileName: 'abandoned.bin',
      fileSize: data.length,
      chunkIndex: 0,
      totalChunks: 2,
      bytes: data.subarray(0, CHUNK_SIZE),
    });
    expect(await sessions()).toHaveLength(1);
    expect(await staged()).toHaveLength(1);
    expect(await jobs.removeAbandonedUploads(new Date(Date.now() - 3600_000))).toBe(0);
    await server.app.db
      .updateTable('upload_sessions')
      .set({ updated_at: new Date(Date.now() - 25 * 3600_000).toISOString() })
      .execute();
    expect(await jobs.removeAbandonedUploads(new Date(Date.now() - 24 * 3600_000))).toBe(1);
    expect(await sessions()).toEqual([]);
    expect(await staged()).toEqual([]);

    const s = await store();
    const dead = 'd'.repeat(64);
    const { Readable } = await import('node:stream');
    await s.put(blobKeyOf(dead), Readable.from([Buffer.from('dead')]));
    await server.app.db.insertInto('blobs').values({ backend, hash: dead, size: 4, ref_count: 0, created_at: new Date().toISOString() }).execute();
    expect(await jobs.collectUnreferenced()).toBeGreaterThanOrEqual(1);
    expect(await s.stat(blobKeyOf(dead))).toBeNull();

    const orphan = 'e'.repeat(64);
    await s.put(blobKeyOf(orphan), Readable.from([Buffer.from('orphan')]));
    expect(await jobs.collectOrphans(new Date(Date.now() - 3600_000))).toBe(0);
    expect(await s.stat(blobKeyOf(orphan))).not.toBeNull();
    expect(await jobs.collectOrphans(new Date(Date.now() + 60_000))).toBe(1);
    expect(await s.stat(blobKeyOf(orphan))).toBeNull();
    // Every referenced blob is still there.
    const rows = await server.app.db.selectFrom('blobs').selectAll().where('backend', '=', backend).execute();
    for (const row of rows) expect(await s.stat(blobKeyOf(row.hash))).toEqual({ size: row.size });
    if (backend === 'server') {
      const tmp = path.join(server.dataDir, 'blobs', 'tmp');
      expect(fs.readdirSync(tmp)).toEqual([]);
    }
  });
});
