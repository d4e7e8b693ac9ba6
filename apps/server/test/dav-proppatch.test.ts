import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { type DavAccount, dav, davMaster, davPath, davUser } from './dav-helpers.js';

const update = (body: string) =>
  `<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:">${body}</D:propertyupdate>`;

describeEachDialect('WebDAV PROPPATCH on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;
  const propfind = (path: string, props: string) =>
    dav(server, 'PROPFIND', davPath(path), {
      auth: master.auth,
      headers: { depth: '0' },
      body: `<D:propfind xmlns:D="DAV:" xmlns:Z="urn:schemas-microsoft-com:"><D:prop>${props}</D:prop></D:propfind>`,
    });

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: '속성', path: '/' } });
    expect((await dav(server, 'PUT', davPath('/속성/a.docx'), { auth: master.auth, body: 'doc' })).status).toBe(201);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('sets dead properties that PROPFIND shows (named and allprop), and removes them', async () => {
    const set = await dav(server, 'PROPPATCH', davPath('/속성/a.docx'), {
      auth: master.auth,
      body: update(
        '<D:set><D:prop><Z:Win32LastModifiedTime>Wed, 25 Nov 2026 10:00:00 GMT</Z:Win32LastModifiedTime><Z:메모>한글 &amp; 값</Z:메모></D:prop></D:set>',
      ),
    });
    expect(set.status).toBe(207);
    expect(set.text).toContain('HTTP/1.1 200 OK');
    const named = await propfind('/속성/a.docx', '<Z:Win32LastModifiedTime/><Z:메모/>');
    expect(named.text).toContain('<x:Win32LastModifiedTime xmlns:x="urn:schemas-microsoft-com:">Wed, 25 Nov 2026 10:00:00 GMT</x:Win32LastModifiedTime>');
    expect(named.text).toContain('<x:메모 xmlns:x="urn:schemas-microsoft-com:">한글 &amp; 값</x:메모>');
    const all = await dav(server, 'PROPFIND', davPath('/속성/a.docx'), { auth: master.auth, headers: { depth: '0' } });
    expect(all.text).toContain('Win32LastModifiedTime');
    const removed = await dav(server, 'PROPPATCH', davPath('/속성/a.docx'), {
      auth: master.auth,
      body: update('<D:remove><D:prop><Z:메모/></D:prop></D:remove>'),
    });
    expect(removed.status).toBe(207);
    expect((await propfind('/속성/a.docx', '<Z:메모/>')).text).toContain('404 Not Found');
  });

  it('is all or nothing: a live property is 403, the rest 424, nothing is stored', async () => {
    const res = await dav(server, 'PROPPATCH', davPath('/속성/a.docx'), {
      auth: master.auth,
      body: update('<D:set><D:prop><Z:keep>1</Z:keep><D:getetag>"x"</D:getetag></D:prop></D:set>'),
    });
    expect(res.status).toBe(207);
    expect(res.text).toMatch(/<D:getetag\/><\/D:prop><D:status>HTTP\/1.1 403 Forbidden/);
    expect(res.text).toMatch(/<x:keep xmlns:x="urn:schemas-microsoft-com:"\/><\/D:prop><D:status>HTTP\/1.1 424 Failed Dependency/);
    expect((await propfind('/속성/a.docx', '<Z:keep/>')).text).toContain('404 Not Found');
  });

  it('properties stay with the item when it moves, and a READ-only USER cannot change them', async () => {
    await dav(server, 'PROPPATCH', davPath('/속성/a.docx'), { auth: master.auth, body: update('<D:set><D:prop><Z:tag>moved along</Z:tag></D:prop></D:set>') });
    expect((await dav(server, 'MOVE', davPath('/속성/a.docx'), { auth: master.auth, headers: { destination: davPath('/속성/b.docx') } })).status).toBe(201);
    expect((await propfind('/속성/b.docx', '<Z:tag/>')).text).toContain('>moved along</x:tag>');
    const user = await davUser(server, `props-${dialect}@example.com`);
    await call(server, apiCalls.resource_update, { token: master.token, body: { path: '/속성', users: [{ entity: user.userId, permissions: ['READ'] }] } });
    const refused = await dav(server, 'PROPPATCH', davPath('/속성/b.docx'), {
      auth: user.auth,
      body: update('<D:set><D:prop><Z:tag>no</Z:tag></D:prop></D:set>'),
    });
    expect(refused.status).toBe(403);
    expect((await propfind('/속성/b.docx', '<Z:tag/>')).text).toContain('>moved along</x:tag>');
  });
});
