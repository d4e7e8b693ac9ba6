import net from 'node:net';
import { apiCalls, CHUNK_SIZE } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { TransferJobs } from '../src/modules/transfer/transfer.jobs.js';
import { TransferRepo } from '../src/modules/transfer/transfer.repo.js';
import { namesIn, usageOf } from './files-helpers.js';
import { call, describeEachDialectAndBackend, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { bytesOf, fetchBytes, sha256 } from './transfer-helpers.js';
import { type DavAccount, dav, davMaster, davPath, davRoot, davUser } from './dav-helpers.js';

const s3Server = useS3();

describeEachDialectAndBackend('WebDAV PUT on $dialect, $backend backend', (dialect, backend) => {
  let server: TestServer;
  let master: DavAccount;
  const root = `/자료 ${backend}`;

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    master = await davMaster(server);
    await davRoot(server, master.token, root.slice(1), backend, () => s3Server().bucket());
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Staged uploads left, once none is still being removed (a refused upload's staging goes when its answer is sent). */
  const staged = async () => {
    const store = (await server.app.blobStores.forBackend(backend))!;
    let found: string[] = [];
    for (let tries = 0; tries < 20; tries++) {
      found = [];
      for await (const s of store.staging.list()) found.push(s.uploadId);
      if (found.length === 0) return found;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    // s3rver may still write the part of an aborted chunk PUT after the upload discarded its
    // staging (a bucket such as S3 keeps nothing of a PUT short of its length): such leftovers
    // belong to no upload session and go with the clean-up job, which is what is checked then.
    if (backend === 'cloud') {
      await new TransferJobs(new TransferRepo(server.app.db), server.app.blobStores, server.app.log).removeAbandonedUploads(new Date(Date.now() + 60_000));
      found = [];
      for await (const s of store.staging.list()) found.push(s.uploadId);
    }
    return found;
  };
  const refs = async (hash: string) =>
    (await server.app.db.selectFrom('blobs').select('ref_count').where('backend', '=', backend).where('hash', '=', hash).executeTakeFirst())?.ref_count;

  it('stores a new file (201, its ETag) that the web lists and downloads byte for byte', async () => {
    const data = bytesOf(CHUNK_SIZE + 12345, `new-${backend}`);
    const path = `${root}/보고서 2026.bin`;
    const res = await dav(server, 'PUT', davPath(path), { auth: master.auth, body: data });
    expect(res.status).toBe(201);
    expect(res.headers.get('etag')).toBe(`"${sha256(data)}"`);
    expect(await namesIn(server, master.token, root)).toContain('보고서 2026.bin');
    const web = await fetchBytes(server, master.token, `/api/file/download?path=${encodeURIComponent(path)}`);
    expect(sha256(web.bytes)).toBe(sha256(data));
    expect(web.headers.get('etag')).toBe(res.headers.get('etag'));
    expect(await usageOf(server, master.token, root)).toBe(data.length);
    expect(await staged()).toEqual([]);
  });

  it('replaces an existing file (204): the old content is kept as a version, counted in the usage', async () => {
    const path = `${root}/replace.txt`;
    const first = Buffer.from('first version');
    const second = Buffer.from('the second, longer version');
    const before = await usageOf(server, master.token, root);
    expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: first })).status).toBe(201);
    const res = await dav(server, 'PUT', davPath(path), { auth: master.auth, body: second });
    expect(res.status).toBe(204);
    expect(res.headers.get('etag')).toBe(`"${sha256(second)}"`);
    expect(await usageOf(server, master.token, root)).toBe(before + first.length + second.length);
    expect(await refs(sha256(second))).toBe(1);
    // The version holds the old content's reference.
    expect(await refs(sha256(first))).toBe(1);
    const got = await dav(server, 'GET', davPath(path), { auth: master.auth });
    expect(got.text).toBe(second.toString());
  });

  it('stores identical content once', async () => {
    const data = Buffer.from('same bytes twice');
    expect((await dav(server, 'PUT', davPath(`${root}/one.txt`), { auth: master.auth, body: data })).status).toBe(201);
    expect((await dav(server, 'PUT', davPath(`${root}/two.txt`), { auth: master.auth, body: data })).status).toBe(201);
    expect(await refs(sha256(data))).toBe(2);
  });

  it('takes a body in chunked transfer encoding', async () => {
    const data = bytesOf(CHUNK_SIZE * 2 + 777, `chunked-${backend}`);
    const pieces = [data.subarray(0, 1000), data.subarray(1000, CHUNK_SIZE + 5), data.subarray(CHUNK_SIZE + 5)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.shift();
        if (next) controller.enqueue(new Uint8Array(next));
        else controller.close();
      },
    });
    const res = await dav(server, 'PUT', davPath(`${root}/흐름.bin`), { auth: master.auth, body });
    expect(res.status).toBe(201);
    const got = await dav(server, 'GET', davPath(`${root}/흐름.bin`), { auth: master.auth });
    expect(sha256(got.bytes)).toBe(sha256(data));
    expect(await staged()).toEqual([]);
  });

  it('keeps nothing of a body shorter than its Content-Length', async () => {
    const url = new URL(server.url);
    await new Promise<void>((resolve, reject) => {
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(`PUT ${davPath(`${root}/short.bin`)} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${master.auth}\r\nContent-Length: 100000\r\n\r\n`);
        socket.end(Buffer.alloc(5000, 1));
      });
      socket.on('data', () => {});
      socket.on('close', () => resolve());
      socket.on('error', reject);
    });
    await new Promise((resolve) => setTimeout(resolve, 200));
    expect(await namesIn(server, master.token, root)).not.toContain('short.bin');
    expect(await staged()).toEqual([]);
  });

  it('answers 409 without a parent folder and 405 on a folder', async () => {
    expect((await dav(server, 'PUT', davPath(`${root}/없는 폴더/a.txt`), { auth: master.auth, body: 'x' })).status).toBe(409);
    expect((await dav(server, 'PUT', davPath(root), { auth: master.auth, body: 'x' })).status).toBe(405);
    expect((await dav(server, 'PUT', '/dav/top.txt', { auth: master.auth, body: 'x' })).status).toBe(403);
  });

  it('answers 507 past the volume limit, before storing (declared) and while streaming (chunked)', async () => {
    const limited = `/한도 ${backend}`;
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: limited.slice(1), path: '/', backend } });
    expect((await call(server, apiCalls.root_volume, { token: master.token, body: { path: limited, volume: 1000 } })).status).toBe(200);
    const declared = await dav(server, 'PUT', davPath(`${limited}/big.bin`), { auth: master.auth, body: Buffer.alloc(1001) });
    expect(declared.status).toBe(507);
    const pieces = [Buffer.alloc(600), Buffer.alloc(600)];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.shift();
        if (next) controller.enqueue(new Uint8Array(next));
        else controller.close();
      },
    });
    const streamed = await dav(server, 'PUT', davPath(`${limited}/streamed.bin`), { auth: master.auth, body });
    expect(streamed.status).toBe(507);
    expect(await namesIn(server, master.token, limited)).toEqual([]);
    expect(await usageOf(server, master.token, limited)).toBe(0);
    expect((await dav(server, 'PUT', davPath(`${limited}/fits.bin`), { auth: master.auth, body: Buffer.alloc(1000) })).status).toBe(201);
    expect(await staged()).toEqual([]);

    // Over a file whose content stays as a version, the old size is not room: 507 comes before
    // the body (the client has sent only its headers and never sends the 600 bytes).
    const url = new URL(server.url);
    const early = await new Promise<string>((resolve, reject) => {
      let answer = '';
      const socket = net.connect(Number(url.port), url.hostname, () => {
        socket.write(`PUT ${davPath(`${limited}/fits.bin`)} HTTP/1.1\r\nHost: ${url.host}\r\nAuthorization: ${master.auth}\r\nContent-Length: 600\r\n\r\n`);
      });
      socket.on('data', (data) => {
        answer += data.toString('latin1');
        if (answer.includes('\r\n')) socket.destroy();
      });
      socket.on('close', () => resolve(answer));
      socket.on('error', reject);
    });
    expect(early.split('\r\n')[0]).toBe('HTTP/1.1 507 Insufficient Storage');
    expect(await usageOf(server, master.token, limited)).toBe(1000);
  });

  it('a USER with READ only gets 403 on PUT, DELETE and MOVE, and nothing changes', async () => {
    const user = await davUser(server, `readonly-${dialect}-${backend}@example.com`);
    const grant = await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: root, users: [{ entity: user.userId, permissions: ['READ', 'DOWNLOAD'] }] },
    });
    expect(grant.status).toBe(200);
    await dav(server, 'PUT', davPath(`${root}/keep.txt`), { auth: master.auth, body: 'keep' });
    expect((await dav(server, 'PUT', davPath(`${root}/new.txt`), { auth: user.auth, body: 'x' })).status).toBe(403);
    expect((await dav(server, 'PUT', davPath(`${root}/keep.txt`), { auth: user.auth, body: 'x' })).status).toBe(403);
    expect((await dav(server, 'DELETE', davPath(`${root}/keep.txt`), { auth: user.auth })).status).toBe(403);
    const destination = `${server.url}${davPath(`${root}/moved.txt`)}`;
    expect((await dav(server, 'MOVE', davPath(`${root}/keep.txt`), { auth: user.auth, headers: { destination } })).status).toBe(403);
    expect((await dav(server, 'GET', davPath(`${root}/keep.txt`), { auth: user.auth })).text).toBe('keep');
    expect(await namesIn(server, master.token, root)).not.toContain('new.txt');
  });
});
