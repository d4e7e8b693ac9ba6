import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type DavAccount, PROPFIND_ALL, dav, davMaster, davPath, davUser } from './dav-helpers.js';
import { MAX_LOCKS_PER_ACCOUNT } from '../src/modules/dav/locks/dav-locks.js';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';

// WebDAV class 2 through HTTP: LOCK and UNLOCK, writes under locks with and without the If
// header, locks of another account, expiry, LOCK on an unmapped URL, and many LOCKs at once.

const lockBody = (scope: 'exclusive' | 'shared', owner = 'mailto:kim@example.com') =>
  `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:${scope}/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner><D:href>${owner}</D:href></D:owner></D:lockinfo>`;

/** The token of a Lock-Token header (`<urn:uuid:…>`). */
const tokenOf = (header: string | null) => /^<(.+)>$/.exec(header ?? '')?.[1] ?? '';

describeEachDialect('WebDAV locks on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;
  let kim: DavAccount;
  let lee: DavAccount;
  let n = 0;
  /** A fresh file path under /영업부 holding `text`, for one test. */
  const fileWith = async (text = 'hello') => {
    n += 1;
    const path = davPath(`/영업부/파일 ${n}.txt`);
    expect((await dav(server, 'PUT', path, { auth: master.auth, body: Buffer.from(text), headers: { 'content-type': 'text/plain' } })).status).toBe(201);
    return path;
  };
  const lock = (path: string, who: DavAccount, options: { scope?: 'exclusive' | 'shared'; depth?: string; timeout?: string; ifHeader?: string } = {}) =>
    dav(server, 'LOCK', path, {
      auth: who.auth,
      body: lockBody(options.scope ?? 'exclusive'),
      headers: {
        ...(options.depth ? { depth: options.depth } : {}),
        ...(options.timeout ? { timeout: options.timeout } : {}),
        ...(options.ifHeader ? { if: options.ifHeader } : {}),
      },
    });
  const put = (path: string, who: DavAccount, ifHeader?: string, text = 'changed') =>
    dav(server, 'PUT', path, { auth: who.auth, body: Buffer.from(text), headers: { 'content-type': 'text/plain', ...(ifHeader ? { if: ifHeader } : {}) } });

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    kim = await davUser(server, 'kim@example.com');
    lee = await davUser(server, 'lee@example.com');
    for (const [name, path] of [
      ['영업부', '/'],
      ['보고서', '/영업부'],
      ['잠금', '/영업부'],
    ] as const) {
      expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name, path } })).status).toBe(200);
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  it('an exclusive LOCK answers the lock and its token; a PUT without the token is 423, with it 2xx', async () => {
    const path = await fileWith();
    const locked = await lock(path, kim, { timeout: 'Second-600' });
    expect(locked.status).toBe(200);
    const token = tokenOf(locked.headers.get('lock-token'));
    expect(token).toMatch(/^urn:uuid:[0-9a-f-]{36}$/);
    expect(locked.headers.get('content-type')).toContain('application/xml');
    expect(locked.text).toContain('<D:lockdiscovery');
    expect(locked.text).toContain(`<D:locktoken><D:href>${token}</D:href></D:locktoken>`);
    expect(locked.text).toContain('<D:exclusive/>');
    expect(locked.text).toContain('<D:owner><D:href>mailto:kim@example.com</D:href></D:owner>');
    expect(locked.text).toMatch(/<D:timeout>Second-(600|599)<\/D:timeout>/);

    const refused = await put(path, kim);
    expect(refused.status).toBe(423);
    expect(refused.text).toContain('<D:lock-token-submitted><D:href>');
    expect((await put(path, master)).status).toBe(423);
    expect((await put(path, kim, `(<${token}>)`, 'by kim')).status).toBe(204);
    expect((await dav(server, 'GET', path, { auth: kim.auth })).text).toBe('by kim');
    // Other writes are held too: DELETE and MOVE of the locked file.
    expect((await dav(server, 'DELETE', path, { auth: master.auth })).status).toBe(423);
    expect((await dav(server, 'MOVE', path, { auth: master.auth, headers: { destination: davPath('/영업부/옮김.txt') } })).status).toBe(423);
  });

  it("another account sending the owner's token is still refused, and cannot UNLOCK it", async () => {
    const path = await fileWith();
    const token = tokenOf((await lock(path, kim)).headers.get('lock-token'));
    expect((await put(path, lee, `(<${token}>)`)).status).toBe(423);
    const unlock = await dav(server, 'UNLOCK', path, { auth: lee.auth, headers: { 'lock-token': `<${token}>` } });
    expect(unlock.status).toBe(403);
    expect((await put(path, kim, `(<${token}>)`)).status).toBe(204);
  });

  it('shared locks share a file; an exclusive LOCK over them is 423 with no-conflicting-lock', async () => {
    const path = await fileWith();
    const first = await lock(path, kim, { scope: 'shared' });
    expect(first.status).toBe(200);
    expect((await lock(path, lee, { scope: 'shared' })).status).toBe(200);
    const exclusive = await lock(path, master);
    expect(exclusive.status).toBe(423);
    expect(exclusive.text).toContain('<D:no-conflicting-lock>');
    // A holder of one shared lock may write.
    expect((await put(path, kim, `(<${tokenOf(first.headers.get('lock-token'))}>)`)).status).toBe(204);
    // An exclusive lock first: a shared one is refused.
    const other = await fileWith();
    expect((await lock(other, kim)).status).toBe(200);
    expect((await lock(other, lee, { scope: 'shared' })).status).toBe(423);
  });

  it('a depth-infinity lock on a folder blocks a new file in it; the token admits it; depth 1 is refused', async () => {
    const folder = davPath('/영업부/잠금', true);
    const locked = await lock(folder, kim, { depth: 'infinity' });
    expect(locked.status).toBe(200);
    const token = tokenOf(locked.headers.get('lock-token'));
    const child = davPath('/영업부/잠금/새 파일.txt');
    expect((await put(child, kim)).status).toBe(423);
    expect((await dav(server, 'MKCOL', davPath('/영업부/잠금/하위'), { auth: master.auth })).status).toBe(423);
    expect((await put(child, kim, `(<${token}>)`)).status).toBe(201);
    // The lock shows on the member's PROPFIND, rooted at the folder.
    const found = await dav(server, 'PROPFIND', child, { auth: kim.auth, headers: { depth: '0' }, body: PROPFIND_ALL });
    expect(found.status).toBe(207);
    expect(found.text).toContain(token);
    expect(found.text).toContain('<D:supportedlock');
    expect((await lock(davPath('/영업부/보고서', true), kim, { depth: '1' })).status).toBe(400);
    const unlocked = await dav(server, 'UNLOCK', folder, { auth: kim.auth, headers: { 'lock-token': `<${token}>` } });
    expect(unlocked.status).toBe(204);
    expect((await put(child, lee, undefined, 'after unlock')).status).toBe(204);
  });

  it('refresh: LOCK without a body and with the token in If gives a new timeout', async () => {
    const path = await fileWith();
    const token = tokenOf((await lock(path, kim, { timeout: 'Second-60' })).headers.get('lock-token'));
    const refreshed = await dav(server, 'LOCK', path, { auth: kim.auth, headers: { if: `(<${token}>)`, timeout: 'Second-3000' } });
    expect(refreshed.status).toBe(200);
    expect(refreshed.text).toContain(token);
    expect(refreshed.text).toMatch(/<D:timeout>Second-(3000|2999)<\/D:timeout>/);
    // Infinite is clamped to the longest timeout the server gives (24 h).
    const longest = await dav(server, 'LOCK', path, { auth: kim.auth, headers: { if: `(<${token}>)`, timeout: 'Infinite' } });
    expect(longest.text).toMatch(/<D:timeout>Second-(86400|86399)<\/D:timeout>/);
    // Another account cannot refresh it; no If header at all is malformed.
    expect((await dav(server, 'LOCK', path, { auth: lee.auth, headers: { if: `(<${token}>)` } })).status).toBe(412);
    expect((await dav(server, 'LOCK', path, { auth: kim.auth })).status).toBe(400);
  });

  it('an expired lock no longer holds: writes pass and another account may lock', async () => {
    const path = await fileWith();
    const token = tokenOf((await lock(path, kim, { timeout: 'Second-1' })).headers.get('lock-token'));
    expect((await put(path, lee)).status).toBe(423);
    // Time passes: the lock's end is moved into the past rather than waiting for it.
    await server.app.db
      .updateTable('dav_locks')
      .set({ expires_at: Date.now() - 1 })
      .where('token', '=', token)
      .execute();
    expect((await put(path, lee)).status).toBe(204);
    expect((await lock(path, lee)).status).toBe(200);
    const unlock = await dav(server, 'UNLOCK', path, { auth: kim.auth, headers: { 'lock-token': `<${token}>` } });
    expect(unlock.status).toBe(409);
  });

  it('UNLOCK with an unknown token or on another URL is 409 lock-token-matches-request-uri; without one 400', async () => {
    const path = await fileWith();
    const other = await fileWith();
    const token = tokenOf((await lock(path, kim)).headers.get('lock-token'));
    const unknown = await dav(server, 'UNLOCK', path, { auth: kim.auth, headers: { 'lock-token': '<urn:uuid:00000000-0000-0000-0000-000000000000>' } });
    expect(unknown.status).toBe(409);
    expect(unknown.text).toContain('<D:lock-token-matches-request-uri/>');
    expect((await dav(server, 'UNLOCK', other, { auth: kim.auth, headers: { 'lock-token': `<${token}>` } })).status).toBe(409);
    expect((await dav(server, 'UNLOCK', path, { auth: kim.auth })).status).toBe(400);
    expect((await dav(server, 'UNLOCK', path, { auth: kim.auth, headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
    expect((await put(path, lee)).status).toBe(204);
  });

  it('LOCK on an unmapped URL creates an empty locked file (201); a missing folder is 409, the top level 403', async () => {
    const path = davPath('/영업부/보고서/잠금으로 만든.txt');
    const created = await lock(path, kim);
    expect(created.status).toBe(201);
    const token = tokenOf(created.headers.get('lock-token'));
    const got = await dav(server, 'GET', path, { auth: kim.auth });
    expect(got.status).toBe(200);
    expect(got.bytes.length).toBe(0);
    expect((await put(path, lee)).status).toBe(423);
    expect((await put(path, kim, `(<${token}>)`, 'content')).status).toBe(204);
    expect((await lock(davPath('/영업부/없는 폴더/a.txt'), kim)).status).toBe(409);
    expect((await lock(davPath('/없는 최상위'), master)).status).toBe(403);
  });

  it('If header: a wrong ETag is 412, a malformed one 400, the right ETag passes', async () => {
    const path = await fileWith('etag me');
    const head = await dav(server, 'HEAD', path, { auth: kim.auth });
    const etag = head.headers.get('etag')!;
    expect(etag).toMatch(/^".+"$/);
    expect((await put(path, kim, '(["not-the-etag"])')).status).toBe(412);
    expect((await put(path, kim, '(<not a token>')).status).toBe(400);
    expect((await put(path, kim, `([${etag}])`)).status).toBe(204);
    // With a lock: the token and the current ETag together.
    const token = tokenOf((await lock(path, kim)).headers.get('lock-token'));
    const now = (await dav(server, 'HEAD', path, { auth: kim.auth })).headers.get('etag')!;
    expect((await put(path, kim, `(<${token}> ["stale"])`)).status).toBe(412);
    expect((await put(path, kim, `(<${token}> [${now}])`)).status).toBe(204);
    // A wrong token in one list, Not <DAV:no-lock> in another: the header holds but submits no token.
    expect((await put(path, kim, '(<urn:uuid:11111111-1111-1111-1111-111111111111>) (Not <DAV:no-lock>)')).status).toBe(423);
  });

  it('DELETE drops the locks under what it deleted; MOVE leaves the lock at its URL, not on the moved file', async () => {
    const path = await fileWith();
    const token = tokenOf((await lock(path, kim)).headers.get('lock-token'));
    expect((await dav(server, 'DELETE', path, { auth: kim.auth, headers: { if: `(<${token}>)` } })).status).toBe(204);
    expect((await put(path, lee, undefined, 'new file at the old URL')).status).toBe(201);

    const source = await fileWith();
    const moved = davPath(`/영업부/옮긴 파일 ${n}.txt`);
    const moveToken = tokenOf((await lock(source, kim)).headers.get('lock-token'));
    expect((await dav(server, 'MOVE', source, { auth: kim.auth, headers: { destination: moved, if: `(<${moveToken}>)` } })).status).toBe(201);
    expect((await put(moved, lee)).status).toBe(204);
    expect((await put(source, lee)).status).toBe(201);

    // Onto a locked destination: refused without its token; with it (untagged, as clients send it) the move lands.
    const from = await fileWith('new content');
    const onto = await fileWith('old content');
    const ontoToken = tokenOf((await lock(onto, kim)).headers.get('lock-token'));
    const headers = { destination: onto, overwrite: 'T' };
    expect((await dav(server, 'MOVE', from, { auth: kim.auth, headers })).status).toBe(423);
    expect((await dav(server, 'MOVE', from, { auth: kim.auth, headers: { ...headers, if: `(<${ontoToken}>)` } })).status).toBe(204);
    expect((await dav(server, 'GET', onto, { auth: kim.auth })).text).toBe('new content');
  });

  it("a file its lock owner trashes or renames through the web leaves no lock on its old URL (others' web writes are refused: dav-locks-web.test.ts)", async () => {
    const path = await fileWith();
    const name = `파일 ${n}.txt`;
    expect((await lock(path, kim)).status).toBe(200);
    expect((await call(server, apiCalls.file_trash, { token: kim.token, body: { paths: [`/영업부/${name}`] } })).status).toBe(200);
    expect((await put(path, lee, undefined, 'a new file at the URL')).status).toBe(201);

    const renamed = await fileWith();
    const token = tokenOf((await lock(renamed, kim)).headers.get('lock-token'));
    const rename = await call(server, apiCalls.file_rename, {
      token: kim.token,
      body: { path: '/영업부', name: `파일 ${n}.txt`, newName: `새 이름 ${n}.txt` },
    });
    expect(rename.status).toBe(200);
    expect((await dav(server, 'UNLOCK', renamed, { auth: kim.auth, headers: { 'lock-token': `<${token}>` } })).status).toBe(409);
    expect((await put(renamed, lee, undefined, 'a new file at the old URL')).status).toBe(201);
  });

  it('a USER who may only READ cannot LOCK (403)', async () => {
    const path = await fileWith();
    const reader = await davUser(server, 'reader@example.com');
    const grant = await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: '/영업부', users: [{ entity: reader.userId, permissions: ['READ'] }] },
    });
    expect(grant.status).toBe(200);
    expect((await lock(path, reader)).status).toBe(403);
    expect((await lock(davPath('/영업부/읽기 전용 새 파일.txt'), reader)).status).toBe(403);
  });

  it('an account holding the most locks allowed gets 507 for one more', async () => {
    const path = await fileWith();
    const many = await davUser(server, 'many@example.com');
    const rows = Array.from({ length: MAX_LOCKS_PER_ACCOUNT }, (_, i) => ({
      token: `urn:uuid:many-${i}`,
      root: '기타',
      path: `/기타/${i}.txt`,
      depth: '0',
      scope: 'exclusive',
      owner_xml: '',
      account_id: many.userId,
      timeout_seconds: 3600,
      created_at: new Date().toISOString(),
      expires_at: Date.now() + 3_600_000,
    }));
    for (let i = 0; i < rows.length; i += 200)
      await server.app.db
        .insertInto('dav_locks')
        .values(rows.slice(i, i + 200))
        .execute();
    expect((await lock(path, many)).status).toBe(507);
    await server.app.db.deleteFrom('dav_locks').where('token', '=', 'urn:uuid:many-0').execute();
    expect((await lock(path, many)).status).toBe(200);
  });

  it('malformed LOCK bodies are 400', async () => {
    const path = await fileWith();
    const bad = ['<D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope></D:lockinfo>', '<not-xml', '<!DOCTYPE x [<!ENTITY a "b">]><x/>'];
    for (const body of bad) expect((await dav(server, 'LOCK', path, { auth: kim.auth, body })).status).toBe(400);
  });

  it('20 exclusive LOCKs of one file at once: exactly one 200, the others 423', async () => {
    const path = await fileWith();
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => lock(path, i % 2 ? kim : lee)));
    const statuses = answers.map((a) => a.status).sort();
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 423)).toHaveLength(19);
  });
});
