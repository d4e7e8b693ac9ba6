import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { namesIn } from './files-helpers.js';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { type DavAccount, dav, davMaster, davPath } from './dav-helpers.js';

describeEachDialect('WebDAV MKCOL and DELETE on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '팀', path: '/' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('MKCOL makes a folder (201) the web lists; taken 405; no parent 409; a body 415', async () => {
    expect((await dav(server, 'MKCOL', davPath('/팀/새 폴더'), { auth: master.auth })).status).toBe(201);
    expect(await namesIn(server, master.token, '/팀')).toContain('새 폴더');
    expect((await dav(server, 'MKCOL', davPath('/팀/새 폴더', true), { auth: master.auth })).status).toBe(405);
    expect((await dav(server, 'MKCOL', davPath('/팀/없음/아래'), { auth: master.auth })).status).toBe(409);
    const withBody = await dav(server, 'MKCOL', davPath('/팀/본문'), { auth: master.auth, body: '<x/>' });
    expect(withBody.status).toBe(415);
    expect(await namesIn(server, master.token, '/팀')).not.toContain('본문');
  });

  it('MKCOL at the top makes a root folder for an administrator only', async () => {
    expect((await dav(server, 'MKCOL', davPath('/새 루트'), { auth: master.auth })).status).toBe(201);
    expect(await namesIn(server, master.token, '/')).toContain('새 루트');
  });

  it('DELETE moves to the trash as the web (204), and the item can be restored', async () => {
    expect((await dav(server, 'PUT', davPath('/팀/지울 파일.txt'), { auth: master.auth, body: 'bye' })).status).toBe(201);
    expect((await dav(server, 'MKCOL', davPath('/팀/지울 폴더'), { auth: master.auth })).status).toBe(201);
    expect((await dav(server, 'PUT', davPath('/팀/지울 폴더/안.txt'), { auth: master.auth, body: 'inside' })).status).toBe(201);
    expect((await dav(server, 'DELETE', davPath('/팀/지울 파일.txt'), { auth: master.auth })).status).toBe(204);
    expect((await dav(server, 'DELETE', davPath('/팀/지울 폴더', true), { auth: master.auth })).status).toBe(204);
    expect(await namesIn(server, master.token, '/팀')).not.toContain('지울 파일.txt');
    expect((await dav(server, 'GET', davPath('/팀/지울 폴더/안.txt'), { auth: master.auth })).status).toBe(404);
    const trash = await call(server, apiCalls.trash_list, { token: master.token });
    expect(trash.status).toBe(200);
    expect(JSON.stringify(trash.body)).toContain('지울 파일.txt');
    expect(JSON.stringify(trash.body)).toContain('지울 폴더');
    expect((await dav(server, 'DELETE', davPath('/팀/지울 파일.txt'), { auth: master.auth })).status).toBe(404);
    expect((await dav(server, 'DELETE', davPath('/팀/x'), { auth: master.auth, headers: { depth: '0' } })).status).toBe(400);
    expect((await dav(server, 'DELETE', '/dav/', { auth: master.auth })).status).toBe(403);
  });
});
