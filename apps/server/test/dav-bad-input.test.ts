import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { type DavAccount, dav, davMaster, davPath, rawRequest } from './dav-helpers.js';

describeEachDialect('WebDAV bad input on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'A', path: '/' } });
    await dav(server, 'MKCOL', '/dav/A/B', { auth: master.auth });
    await dav(server, 'PUT', '/dav/A/B/f.txt', { auth: master.auth, body: 'f' });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('refuses .., %2e%2e, %2f, backslashes, NUL and control characters in paths with 400', async () => {
    const paths = [
      '/dav/A/B/../B/f.txt',
      '/dav/A/%2e%2e/A/B/f.txt',
      '/dav/A/B%2ff.txt',
      '/dav/A/B%5cf.txt',
      '/dav/A/B\\f.txt',
      '/dav/A/B/f%00.txt',
      '/dav/A/B/f%0a.txt',
      '/dav/A//B/f.txt',
      '/dav/A/B/%E0%A4%A',
    ];
    for (const path of paths) {
      for (const method of ['GET', 'PUT', 'PROPFIND', 'DELETE']) {
        const res = await rawRequest(server.url, method, path, { authorization: master.auth, depth: '0', 'content-length': 1 }, 'x');
        expect([path, method, res.status]).toEqual([path, method, 400]);
      }
    }
    expect((await dav(server, 'GET', '/dav/A/B/f.txt', { auth: master.auth })).text).toBe('f');
  });

  it('answers a malformed percent escape with the WebDAV 400 body, as for any bad path, never the API JSON', async () => {
    const dav400 = await rawRequest(server.url, 'GET', '/dav/A/B%2ff.txt', { authorization: master.auth });
    expect(dav400).toMatchObject({ status: 400, text: '400\n' });
    for (const path of ['/dav/A/B/%E0%A4%A', '/dav/%zz', '/dav/A/%zz/f.txt', '/dav/A/B/f.txt%']) {
      for (const method of ['GET', 'PUT', 'PROPFIND', 'MOVE']) {
        for (const headers of [{ authorization: master.auth, depth: '0' }, { depth: '0' }] as Record<string, string>[]) {
          const res = await rawRequest(server.url, method, path, headers);
          expect([path, method, res.status, res.text, res.headers['content-type']]).toEqual([path, method, 400, '400\n', dav400.headers['content-type']]);
          expect(res.headers['cache-control']).toBe('no-store');
        }
      }
    }
    // A body sent with it is not read: the connection ends with the answer.
    const put = await rawRequest(server.url, 'PUT', '/dav/A/%zz', { authorization: master.auth, 'content-length': 5 }, 'hello');
    expect([put.status, put.text]).toEqual([400, '400\n']);
    // Outside /dav the answer stays the framework's JSON.
    const api = await rawRequest(server.url, 'GET', '/api/%zz', {});
    expect(api.status).toBe(400);
    expect(JSON.parse(api.text)).toMatchObject({ code: 'FST_ERR_BAD_URL', statusCode: 400 });
    expect((await dav(server, 'GET', '/dav/A/B/f.txt', { auth: master.auth })).text).toBe('f');
  });

  it('refuses a DOCTYPE (entity expansion, external entities) and malformed XML with 400', async () => {
    const bodies = [
      '<?xml version="1.0"?><!DOCTYPE lol [<!ENTITY lol "lol"><!ENTITY lol2 "&lol;&lol;&lol;&lol;">]><D:propfind xmlns:D="DAV:"><D:prop><D:displayname>&lol2;</D:displayname></D:prop></D:propfind>',
      '<?xml version="1.0"?><!DOCTYPE x [<!ENTITY xxe SYSTEM "file:///etc/passwd">]><D:propfind xmlns:D="DAV:">&xxe;</D:propfind>',
      '<D:propfind xmlns:D="DAV:"><D:prop></D:propfind>',
      '<D:propfind xmlns:D="DAV:"><D:prop><X:y/></D:prop></D:propfind>',
      '<D:propfind xmlns:D="DAV:">&unknown;</D:propfind>',
      'not xml at all',
      '<a:propfind xmlns:a="urn:other"/>',
    ];
    for (const body of bodies) {
      const res = await dav(server, 'PROPFIND', '/dav/A/', { auth: master.auth, headers: { depth: '0' }, body });
      expect([body, res.status]).toEqual([body, 400]);
      expect(res.text).not.toContain('root:');
    }
    const proppatch = await dav(server, 'PROPPATCH', '/dav/A/B/f.txt', { auth: master.auth, body: bodies[0] });
    expect(proppatch.status).toBe(400);
  });

  it('refuses a 1 MiB PROPFIND body with 413, declared or chunked', async () => {
    const big = `<D:propfind xmlns:D="DAV:"><D:prop>${'<D:displayname/>'.repeat(70_000)}</D:prop></D:propfind>`;
    expect((await dav(server, 'PROPFIND', '/dav/A/', { auth: master.auth, headers: { depth: '0' }, body: big })).status).toBe(413);
    const pieces = [Buffer.from(big.slice(0, 500_000)), Buffer.from(big.slice(500_000))];
    const body = new ReadableStream<Uint8Array>({
      pull(controller) {
        const next = pieces.shift();
        if (next) controller.enqueue(new Uint8Array(next));
        else controller.close();
      },
    });
    expect((await dav(server, 'PROPFIND', '/dav/A/', { auth: master.auth, headers: { depth: '0', 'content-type': 'application/xml' }, body })).status).toBe(
      413,
    );
  });

  it('refuses Depth: infinity and bodies that are not XML', async () => {
    expect((await dav(server, 'PROPFIND', davPath('/A'), { auth: master.auth, headers: { depth: 'infinity' } })).status).toBe(403);
    expect(
      (await dav(server, 'PROPFIND', davPath('/A'), { auth: master.auth, headers: { depth: '0', 'content-type': 'application/json' }, body: '{}' })).status,
    ).toBe(415);
  });
});
