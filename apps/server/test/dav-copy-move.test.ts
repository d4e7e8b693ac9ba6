import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { namesIn } from './files-helpers.js';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { type DavAccount, dav, davMaster, davPath } from './dav-helpers.js';

describeEachDialect('WebDAV COPY and MOVE on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;
  const to = (path: string, folder = false) => `${server.url}${davPath(path, folder)}`;
  const put = (path: string, body: string) => dav(server, 'PUT', davPath(path), { auth: master.auth, body });
  const text = async (path: string) => (await dav(server, 'GET', davPath(path), { auth: master.auth })).text;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    for (const name of ['원본', '대상'])
      expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('MOVE renames and moves (201), COPY copies under a new name (201), the web sees both', async () => {
    expect((await put('/원본/a.txt', 'alpha')).status).toBe(201);
    const moved = await dav(server, 'MOVE', davPath('/원본/a.txt'), { auth: master.auth, headers: { destination: to('/대상/가.txt') } });
    expect(moved.status).toBe(201);
    expect(await namesIn(server, master.token, '/원본')).not.toContain('a.txt');
    expect(await text('/대상/가.txt')).toBe('alpha');
    const renamed = await dav(server, 'MOVE', davPath('/대상/가.txt'), { auth: master.auth, headers: { destination: davPath('/대상/나.txt') } });
    expect(renamed.status).toBe(201);
    const copied = await dav(server, 'COPY', davPath('/대상/나.txt'), { auth: master.auth, headers: { destination: to('/원본/복사본.txt') } });
    expect(copied.status).toBe(201);
    expect(await text('/원본/복사본.txt')).toBe('alpha');
    expect(await text('/대상/나.txt')).toBe('alpha');
  });

  it('Overwrite: F on an existing destination is 412; T replaces it (204), the old one in the trash', async () => {
    await put('/원본/b.txt', 'new');
    await put('/대상/b.txt', 'old');
    const refused = await dav(server, 'COPY', davPath('/원본/b.txt'), { auth: master.auth, headers: { destination: to('/대상/b.txt'), overwrite: 'F' } });
    expect(refused.status).toBe(412);
    expect(await text('/대상/b.txt')).toBe('old');
    const replaced = await dav(server, 'MOVE', davPath('/원본/b.txt'), { auth: master.auth, headers: { destination: to('/대상/b.txt'), overwrite: 'T' } });
    expect(replaced.status).toBe(204);
    expect(await text('/대상/b.txt')).toBe('new');
    expect(JSON.stringify((await call(server, apiCalls.trash_list, { token: master.token })).body)).toContain('b.txt');
  });

  it('copies a folder with its members (Depth infinity) or alone (Depth 0); MOVE takes infinity only', async () => {
    await dav(server, 'MKCOL', davPath('/원본/폴더'), { auth: master.auth });
    await put('/원본/폴더/안.txt', 'inner');
    expect((await dav(server, 'COPY', davPath('/원본/폴더', true), { auth: master.auth, headers: { destination: to('/대상/전체', true) } })).status).toBe(201);
    expect(await text('/대상/전체/안.txt')).toBe('inner');
    expect(
      (await dav(server, 'COPY', davPath('/원본/폴더', true), { auth: master.auth, headers: { destination: to('/대상/빈', true), depth: '0' } })).status,
    ).toBe(201);
    expect(await namesIn(server, master.token, '/대상/빈')).toEqual([]);
    expect((await dav(server, 'MOVE', davPath('/원본/폴더'), { auth: master.auth, headers: { destination: to('/대상/x'), depth: '0' } })).status).toBe(400);
  });

  it('refuses a folder into itself or onto itself (403) and a missing destination folder (409)', async () => {
    await dav(server, 'MKCOL', davPath('/원본/상위'), { auth: master.auth });
    await dav(server, 'MKCOL', davPath('/원본/상위/하위'), { auth: master.auth });
    expect((await dav(server, 'MOVE', davPath('/원본/상위'), { auth: master.auth, headers: { destination: to('/원본/상위/하위/상위') } })).status).toBe(403);
    expect((await dav(server, 'MOVE', davPath('/원본/상위'), { auth: master.auth, headers: { destination: to('/원본/상위') } })).status).toBe(403);
    expect((await dav(server, 'COPY', davPath('/원본/상위'), { auth: master.auth, headers: { destination: to('/원본/상위/하위/c') } })).status).toBe(403);
    expect(
      (await dav(server, 'MOVE', davPath('/원본/상위/하위'), { auth: master.auth, headers: { destination: to('/원본/상위'), overwrite: 'T' } })).status,
    ).toBe(403);
    expect((await dav(server, 'MOVE', davPath('/원본/상위'), { auth: master.auth, headers: { destination: to('/없음/상위') } })).status).toBe(409);
    expect(await namesIn(server, master.token, '/원본/상위')).toEqual(['하위']);
  });

  it('a Destination on another host is 502, outside /dav/ or missing 400', async () => {
    await put('/원본/d.txt', 'd');
    const other = await dav(server, 'MOVE', davPath('/원본/d.txt'), {
      auth: master.auth,
      headers: { destination: `http://elsewhere.example${davPath('/대상/d.txt')}` },
    });
    expect(other.status).toBe(502);
    const outside = await dav(server, 'MOVE', davPath('/원본/d.txt'), { auth: master.auth, headers: { destination: `${server.url}/api/file/list` } });
    expect(outside.status).toBe(400);
    expect((await dav(server, 'MOVE', davPath('/원본/d.txt'), { auth: master.auth })).status).toBe(400);
    expect(await text('/원본/d.txt')).toBe('d');
  });
});
