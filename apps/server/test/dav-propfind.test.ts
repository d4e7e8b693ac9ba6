import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { type DavAccount, PROPFIND_ALL, dav, davMaster, davPath, davUser, hrefsOf, responseOf } from './dav-helpers.js';

describeEachDialect('WebDAV PROPFIND on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    const made = await call(server, apiCalls.folder_create, { token: master.token, body: { name: '영업부', path: '/' } });
    expect(made.status).toBe(200);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: '보고서', path: '/영업부' } });
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers OPTIONS with DAV: 1, 2 without a sign-in', async () => {
    const res = await dav(server, 'OPTIONS', '/dav/');
    expect(res.status).toBe(200);
    expect(res.headers.get('dav')).toBe('1, 2');
    expect(res.headers.get('allow')).toContain('PROPFIND');
    expect(res.headers.get('ms-author-via')).toBe('DAV');
  });

  it('asks for Basic credentials and refuses the account password', async () => {
    const none = await dav(server, 'PROPFIND', '/dav/', { headers: { depth: '0' } });
    expect(none.status).toBe(401);
    expect(none.headers.get('www-authenticate')).toBe('Basic realm="Bogwan", charset="UTF-8"');
    expect(none.text).not.toContain('statusCode');
    const account = await dav(server, 'PROPFIND', '/dav/', {
      auth: `Basic ${Buffer.from('master@example.com:Bogwan!2026').toString('base64')}`,
      headers: { depth: '0' },
    });
    expect(account.status).toBe(401);
    const bearer = await dav(server, 'PROPFIND', '/dav/', { headers: { depth: '0', authorization: `Bearer ${master.token}` } });
    expect(bearer.status).toBe(401);
  });

  it('lists the root folders at /dav/ with depth 1, hrefs percent-encoded', async () => {
    const res = await dav(server, 'PROPFIND', '/dav/', { auth: master.auth, headers: { depth: '1' }, body: PROPFIND_ALL });
    expect(res.status).toBe(207);
    expect(res.headers.get('content-type')).toContain('application/xml');
    expect(hrefsOf(res.text)).toEqual(['/dav/', '/dav/영업부/']);
    expect(res.text).toContain(`<D:href>/dav/${encodeURIComponent('영업부')}/</D:href>`);
    expect(responseOf(res.text, '/dav/영업부/')).toContain('<D:resourcetype><D:collection/></D:resourcetype>');
  });

  it('depth 0 answers the folder alone; depth 1 its members; names sent in NFD find the NFC node', async () => {
    await server.app.fileTree.addFile((await server.app.fileTree.resolve('/영업부'))!, {
      name: '계약서 (최종).txt',
      size: 5,
      contentHash: 'a'.repeat(64),
      blobKey: 'aa/aa/x',
      ownerId: master.userId,
    });
    const zero = await dav(server, 'PROPFIND', davPath('/영업부'), { auth: master.auth, headers: { depth: '0' } });
    expect(zero.status).toBe(207);
    expect(hrefsOf(zero.text)).toEqual(['/dav/영업부/']);
    const one = await dav(server, 'PROPFIND', davPath('/영업부', true), { auth: master.auth, headers: { depth: '1' }, body: PROPFIND_ALL });
    expect(hrefsOf(one.text).sort()).toEqual(['/dav/영업부/', '/dav/영업부/계약서 (최종).txt', '/dav/영업부/보고서/'].sort());
    const file = responseOf(one.text, '/dav/영업부/계약서 (최종).txt')!;
    expect(file).toContain('<D:getcontentlength>5</D:getcontentlength>');
    expect(file).toContain(`<D:getetag>&quot;${'a'.repeat(64)}&quot;</D:getetag>`);
    expect(file).toContain('<D:displayname>계약서 (최종).txt</D:displayname>');
    expect(file).toContain('<D:getcontenttype>text/plain; charset=utf-8</D:getcontenttype>');
    expect(file).toMatch(/<D:getlastmodified>\w{3}, \d{2} \w{3} \d{4} [\d:]{8} GMT<\/D:getlastmodified>/);
    expect(file).toContain('<D:resourcetype/>');
    expect(file).toContain('<D:supportedlock');
    const nfd = await dav(server, 'PROPFIND', davPath('/영업부/계약서 (최종).txt'.normalize('NFD')), { auth: master.auth, headers: { depth: '0' } });
    expect(nfd.status).toBe(207);
    expect(hrefsOf(nfd.text)).toEqual(['/dav/영업부/계약서 (최종).txt']);
  });

  it('answers named properties, 404 in a propstat for unknown ones, and propname', async () => {
    const body = '<?xml version="1.0"?><D:propfind xmlns:D="DAV:" xmlns:Z="urn:example"><D:prop><D:displayname/><Z:unknown/></D:prop></D:propfind>';
    const res = await dav(server, 'PROPFIND', davPath('/영업부'), { auth: master.auth, headers: { depth: '0' }, body });
    expect(res.status).toBe(207);
    expect(res.text).toContain('<D:displayname>영업부</D:displayname>');
    expect(res.text).toMatch(/<x:unknown xmlns:x="urn:example"\/><\/D:prop><D:status>HTTP\/1.1 404 Not Found<\/D:status>/);
    const names = await dav(server, 'PROPFIND', davPath('/영업부'), {
      auth: master.auth,
      headers: { depth: '0' },
      body: '<D:propfind xmlns:D="DAV:"><D:propname/></D:propfind>',
    });
    expect(names.text).toContain('<D:getlastmodified/>');
    expect(names.text).not.toContain('영업부</D:displayname>');
  });

  it('shows the quota of the root folder (RFC 4331) on folders', async () => {
    const limit = await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/영업부', volume: 1000 } });
    expect(limit.status).toBe(200);
    const body = '<D:propfind xmlns:D="DAV:"><D:prop><D:quota-used-bytes/><D:quota-available-bytes/></D:prop></D:propfind>';
    const res = await dav(server, 'PROPFIND', davPath('/영업부/보고서'), { auth: master.auth, headers: { depth: '0' }, body });
    expect(res.text).toContain('<D:quota-used-bytes>5</D:quota-used-bytes>');
    expect(res.text).toContain('<D:quota-available-bytes>995</D:quota-available-bytes>');
  });

  it('refuses Depth: infinity with the propfind-finite-depth precondition', async () => {
    for (const headers of [{ depth: 'infinity' }, {} as Record<string, string>]) {
      const res = await dav(server, 'PROPFIND', davPath('/영업부'), { auth: master.auth, headers });
      expect(res.status).toBe(403);
      expect(res.text).toContain('<D:error xmlns:D="DAV:"><D:propfind-finite-depth/></D:error>');
    }
  });

  it('a USER sees at /dav/ only the root folders they may READ, and 404 for a missing path', async () => {
    const user = await davUser(server, `reader-${dialect}@example.com`);
    const missing = await dav(server, 'PROPFIND', davPath('/영업부/없음'), { auth: user.auth, headers: { depth: '0' } });
    expect(missing.status).toBe(404);
    expect(missing.text).not.toContain('statusCode');
    const res = await dav(server, 'PROPFIND', '/dav/', { auth: user.auth, headers: { depth: '1' } });
    expect(res.status).toBe(207);
    expect(hrefsOf(res.text)).toContain('/dav/');
  });
});
