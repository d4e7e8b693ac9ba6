import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DavAccount, dav, davMaster, davPath, davUser } from './dav-helpers.js';
import { namesIn } from './files-helpers.js';
import { call, callRefused, describeEachDialect, startServer, type TestServer } from './harness.js';
import { upload } from './transfer-helpers.js';

// WebDAV locks hold for the web's writes too: a file or folder locked by one account's WebDAV
// client (an office app) cannot be replaced, renamed, moved, trashed or written into through
// the web by anyone else (423 `file_locked_warning`); the lock owner's own web session may, and
// a rename or move by it ends the lock on the old URL.

const lockBody = `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>mailto:kim@example.com</D:href></D:owner></D:lockinfo>`;
const tokenOf = (header: string | null) => /^<(.+)>$/.exec(header ?? '')?.[1] ?? '';
const LOCKED = { status: 423, body: { message: 'file_locked_warning' } };

describeEachDialect('web writes under WebDAV locks on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;
  let kim: DavAccount;
  let lee: DavAccount;
  let n = 0;

  const mkdir = async (name: string, path: string) =>
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name, path } })).status).toBe(200);
  /** A fresh folder under /영업부 holding one file written over WebDAV; answers both names. */
  const fixture = async () => {
    n += 1;
    const folder = `/영업부/폴더 ${n}`;
    await mkdir(`폴더 ${n}`, '/영업부');
    const file = `${folder}/문서.docx`;
    expect((await dav(server, 'PUT', davPath(file), { auth: master.auth, body: Buffer.from('초안') })).status).toBe(201);
    return { folder, file };
  };
  const lock = async (path: string, who: DavAccount, depth = '0') => {
    const res = await dav(server, 'LOCK', davPath(path), { auth: who.auth, body: lockBody, headers: { depth, timeout: 'Second-600' } });
    expect(res.status).toBe(200);
    return tokenOf(res.headers.get('lock-token'));
  };
  const unlock = async (path: string, who: DavAccount, token: string) =>
    expect((await dav(server, 'UNLOCK', davPath(path), { auth: who.auth, headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
  const locksLeft = async () => (await server.app.db.selectFrom('dav_locks').select('path').execute()).map((row) => row.path);

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    kim = await davUser(server, 'kim@example.com');
    lee = await davUser(server, 'lee@example.com');
    await mkdir('영업부', '/');
    await mkdir('다른 곳', '/영업부');
  });
  afterAll(async () => {
    await server?.close();
  });

  it("a file locked over WebDAV refuses another account's web upload over it, rename, move and trash; after UNLOCK each succeeds", async () => {
    const { folder, file } = await fixture();
    const token = await lock(file, kim);
    for (const who of [lee, master]) {
      expect(await upload(server, who.token, folder, '문서.docx', Buffer.from('덮어쓰기'))).toMatchObject(LOCKED);
      expect(
        await callRefused(server, apiCalls.file_rename, { token: who.token, body: { path: folder, name: '문서.docx', newName: '새 이름.docx' } }),
      ).toMatchObject(LOCKED);
      expect(
        await callRefused(server, apiCalls.file_move, { token: who.token, body: { path: folder, name: '문서.docx', newPath: '/영업부/다른 곳' } }),
      ).toMatchObject(LOCKED);
      expect(await callRefused(server, apiCalls.file_trash, { token: who.token, body: { paths: [file] } })).toMatchObject(LOCKED);
      // Its folder holds a locked member: moving or trashing the folder is refused as well.
      expect(await callRefused(server, apiCalls.file_trash, { token: who.token, body: { paths: [folder] } })).toMatchObject(LOCKED);
    }
    expect(await namesIn(server, lee.token, folder)).toEqual(['문서.docx']);
    expect((await dav(server, 'GET', davPath(file), { auth: kim.auth })).text).toBe('초안');
    // Other files in that folder are not locked (a depth-0 lock on a file reaches that file alone).
    expect((await upload(server, lee.token, folder, '메모.txt', Buffer.from('메모'))).status).toBe(200);

    await unlock(file, kim, token);
    expect((await call(server, apiCalls.file_rename, { token: lee.token, body: { path: folder, name: '문서.docx', newName: '새 이름.docx' } })).status).toBe(
      200,
    );
    expect(
      (await call(server, apiCalls.file_move, { token: lee.token, body: { path: folder, name: '새 이름.docx', newPath: '/영업부/다른 곳' } })).status,
    ).toBe(200);
    expect((await call(server, apiCalls.file_trash, { token: lee.token, body: { paths: ['/영업부/다른 곳/새 이름.docx'] } })).status).toBe(200);
    expect((await upload(server, lee.token, folder, '문서.docx', Buffer.from('새로'))).status).toBe(200);
  });

  it("the lock owner's own web session may rename and move its locked file; the lock ends with the old URL", async () => {
    const { folder, file } = await fixture();
    const token = await lock(file, kim);
    expect((await call(server, apiCalls.file_rename, { token: kim.token, body: { path: folder, name: '문서.docx', newName: '최종.docx' } })).status).toBe(200);
    expect(await locksLeft()).toEqual([]);
    // Nothing holds the old URL or the new one: another account may write both.
    expect((await dav(server, 'PUT', davPath(file), { auth: lee.auth, body: Buffer.from('새 파일') })).status).toBe(201);
    expect((await call(server, apiCalls.file_rename, { token: lee.token, body: { path: folder, name: '최종.docx', newName: '최종2.docx' } })).status).toBe(200);
    // The token names no lock now.
    expect((await dav(server, 'UNLOCK', davPath(file), { auth: kim.auth, headers: { 'lock-token': `<${token}>` } })).status).toBe(409);

    await lock(`${folder}/최종2.docx`, kim);
    expect((await call(server, apiCalls.file_move, { token: kim.token, body: { path: folder, name: '최종2.docx', newPath: '/영업부/다른 곳' } })).status).toBe(
      200,
    );
    expect(await locksLeft()).toEqual([]);
    expect(await namesIn(server, kim.token, '/영업부/다른 곳')).toContain('최종2.docx');
  });

  it('a folder locked with depth infinity refuses web uploads, new folders, copies and moves into it from another account', async () => {
    const { folder } = await fixture();
    const { folder: sourceFolder } = await fixture();
    const token = await lock(folder, kim, 'infinity');
    expect(await upload(server, lee.token, folder, '보고서.txt', Buffer.from('보고'))).toMatchObject(LOCKED);
    expect(await callRefused(server, apiCalls.folder_create, { token: lee.token, body: { name: '하위', path: folder } })).toMatchObject(LOCKED);
    expect(await callRefused(server, apiCalls.file_copy, { token: lee.token, body: { path: sourceFolder, name: '문서.docx', newPath: folder } })).toMatchObject(
      LOCKED,
    );
    expect(await callRefused(server, apiCalls.file_move, { token: lee.token, body: { path: sourceFolder, name: '문서.docx', newPath: folder } })).toMatchObject(
      LOCKED,
    );
    expect(await namesIn(server, lee.token, folder)).toEqual(['문서.docx']);
    // The owner's web session writes into its own locked folder; the lock stays.
    expect((await upload(server, kim.token, folder, '내 보고서.txt', Buffer.from('보고'))).status).toBe(200);
    expect(await locksLeft()).toEqual([folder]);

    await unlock(folder, kim, token);
    expect((await upload(server, lee.token, folder, '보고서.txt', Buffer.from('보고'))).status).toBe(200);
    expect((await call(server, apiCalls.folder_create, { token: lee.token, body: { name: '하위', path: folder } })).status).toBe(200);
    expect(
      (await call(server, apiCalls.file_copy, { token: lee.token, body: { path: sourceFolder, name: '문서.docx', newPath: `${folder}/하위` } })).status,
    ).toBe(200);
  });

  it('an item is not restored from the trash into a folder another account has locked', async () => {
    const { folder, file } = await fixture();
    const trashed = await call(server, apiCalls.file_trash, { token: lee.token, body: { paths: [file] } });
    expect(trashed.status).toBe(200);
    const ids = trashed.body.ids;
    const token = await lock(folder, kim, 'infinity');
    expect(await callRefused(server, apiCalls.trash_restore, { token: lee.token, body: { ids } })).toMatchObject(LOCKED);
    expect(await namesIn(server, lee.token, folder)).toEqual([]);
    await unlock(folder, kim, token);
    expect((await call(server, apiCalls.trash_restore, { token: lee.token, body: { ids } })).status).toBe(200);
    expect(await namesIn(server, lee.token, folder)).toEqual(['문서.docx']);
  });
});
