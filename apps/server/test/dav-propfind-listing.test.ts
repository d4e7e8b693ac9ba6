import { apiCalls } from '@bogwan/contracts';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { DeadPropertiesRepo } from '../src/modules/dav/dead-properties.repo.js';
import { DavLocksRepo } from '../src/modules/dav/locks/locks.repo.js';
import { DavListingRepo } from '../src/modules/dav/dav-listing.repo.js';
import { addFile } from './files-helpers.js';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { type DavAccount, PROPFIND_ALL, dav, davMaster, davPath, hrefsOf, responseOf } from './dav-helpers.js';

// A PROPFIND of depth 1 reads the members, their dead properties and their locks with one
// query each, however many members (a big folder must not cost a query per entry), and
// answers what a PROPFIND of each member alone answers.

const MEMBERS = 300;
const LOCK = (depth: string) =>
  `<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype><D:owner>${depth}</D:owner></D:lockinfo>`;
const SET_PROP =
  '<?xml version="1.0" encoding="utf-8"?><D:propertyupdate xmlns:D="DAV:" xmlns:Z="urn:x-test"><D:set><D:prop><Z:colour>파랑</Z:colour></D:prop></D:set></D:propertyupdate>';
const lockTokenOf = (xml: string) => /<D:locktoken><D:href>([^<]+)<\/D:href>/.exec(xml)?.[1];
const lockDiscoveryOf = (xml: string) => /<D:lockdiscovery\/>|<D:lockdiscovery[^>/]*>[\s\S]*?<\/D:lockdiscovery>/.exec(xml)?.[0];

describeEachDialect('WebDAV PROPFIND of a big folder on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;
  const folder = '/목록/큰 폴더';

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '목록', path: '/' } })).status).toBe(200);
    expect((await dav(server, 'MKCOL', davPath(folder), { auth: master.auth })).status).toBe(201);
    expect((await dav(server, 'MKCOL', davPath(`${folder}/하위`), { auth: master.auth })).status).toBe(201);
    for (let i = 0; i < MEMBERS; i++) await addFile(server, folder, `파일 ${String(i).padStart(4, '0')}.txt`, 10 + i, master.userId);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('depth 1: one query each for the members, their dead properties and their locks; each entry as its own PROPFIND answers', async () => {
    const locked = `${folder}/파일 0007.txt`;
    const fileLock = await dav(server, 'LOCK', davPath(locked), { auth: master.auth, headers: { depth: '0' }, body: LOCK('0') });
    expect(fileLock.status).toBe(200);
    const folderLock = await dav(server, 'LOCK', davPath(`${folder}/하위`), { auth: master.auth, headers: { depth: 'infinity' }, body: LOCK('infinity') });
    expect(folderLock.status).toBe(200);
    expect((await dav(server, 'PROPPATCH', davPath(`${folder}/파일 0003.txt`), { auth: master.auth, body: SET_PROP })).status).toBe(207);

    const near = vi.spyOn(DavLocksRepo.prototype, 'near');
    const listing = vi.spyOn(DeadPropertiesRepo.prototype, 'ofListing');
    const perNodes = vi.spyOn(DeadPropertiesRepo.prototype, 'ofNodes');
    const children = vi.spyOn(DavListingRepo.prototype, 'liveMembers');
    const res = await dav(server, 'PROPFIND', davPath(folder, true), { auth: master.auth, headers: { depth: '1' }, body: PROPFIND_ALL });
    expect(res.status).toBe(207);
    expect(near).toHaveBeenCalledTimes(1);
    expect(listing).toHaveBeenCalledTimes(1);
    expect(perNodes).not.toHaveBeenCalled();
    expect(children).toHaveBeenCalledTimes(1);
    vi.restoreAllMocks();

    // Each response's own href (lockdiscovery holds hrefs too).
    const hrefs = hrefsOf(
      res.text
        .split('<D:response>')
        .slice(1)
        .map((part) => /<D:href>[^<]*<\/D:href>/.exec(part)![0])
        .join(''),
    );
    expect(hrefs).toHaveLength(MEMBERS + 2);
    const fileToken = lockTokenOf(fileLock.text)!;
    const folderToken = lockTokenOf(folderLock.text)!;
    expect(lockDiscoveryOf(responseOf(res.text, `/dav${locked}`)!)).toContain(fileToken);
    expect(lockDiscoveryOf(responseOf(res.text, `/dav${folder}/하위/`)!)).toContain(folderToken);
    expect(lockDiscoveryOf(responseOf(res.text, `/dav${folder}/파일 0008.txt`)!)).not.toContain('activelock');
    expect(lockDiscoveryOf(responseOf(res.text, `/dav${folder}/`)!)).not.toContain('activelock');
    expect(responseOf(res.text, `/dav${folder}/파일 0003.txt`)).toContain('파랑');
    // allprop names only what a resource has: a folder has no length, type or ETag, and says nothing of them.
    expect(responseOf(res.text, `/dav${folder}/하위/`)).not.toMatch(/404 Not Found|getcontentlength|getetag/);
    expect(responseOf(res.text, `/dav${folder}/파일 0004.txt`)).toMatch(/<D:getcontentlength>\d+<\/D:getcontentlength>/);
    expect(responseOf(res.text, `/dav${folder}/파일 0004.txt`)).not.toContain('파랑');

    // The same properties as each member's own PROPFIND of depth 0.
    for (const path of [locked, `${folder}/하위`, `${folder}/파일 0003.txt`, `${folder}/파일 0299.txt`]) {
      const folderEntry = path.endsWith('하위');
      const alone = await dav(server, 'PROPFIND', davPath(path, folderEntry), { auth: master.auth, headers: { depth: '0' }, body: PROPFIND_ALL });
      const href = `/dav${path}${folderEntry ? '/' : ''}`;
      // Up to its end tag, the seconds left of a lock aside (a second may pass between the two).
      const entry = (xml: string) =>
        responseOf(xml, href)!
          .split('</D:response>')[0]!
          .replace(/Second-\d+/g, 'Second-N');
      expect(entry(alone.text)).toBe(entry(res.text));
    }
  });

  it("depth 1 lists the members in the web listing's order: folders first, then by name", async () => {
    const mixed = '/목록/섞인 이름';
    expect((await dav(server, 'MKCOL', davPath(mixed), { auth: master.auth })).status).toBe(201);
    for (const name of ['z 폴더', 'A 폴더', '가 폴더'])
      expect((await dav(server, 'MKCOL', davPath(`${mixed}/${name}`), { auth: master.auth })).status).toBe(201);
    for (const name of ['b.txt', '10.txt', 'B.txt', '가나.txt', '2.txt', 'a.txt', '_x.txt', '나.txt']) await addFile(server, mixed, name, 3, master.userId);
    const web = await call(server, apiCalls.file_list, { token: master.token, query: { path: mixed, limit: 100 } });
    expect(web.status).toBe(200);
    const webNames = (web.body.items as { name: string }[]).map((item) => item.name);
    const res = await dav(server, 'PROPFIND', davPath(mixed, true), { auth: master.auth, headers: { depth: '1' }, body: PROPFIND_ALL });
    expect(res.status).toBe(207);
    const davNames = hrefsOf(res.text)
      .slice(1)
      .map((href) => href.replace(/\/$/, '').split('/').at(-1));
    expect(davNames).toEqual(webNames);
    expect(davNames.slice(0, 3).sort()).toEqual(['A 폴더', 'z 폴더', '가 폴더'].sort());
    expect(davNames).toHaveLength(11);
  });

  it('a prop request without lock or dead properties reads neither', async () => {
    const near = vi.spyOn(DavLocksRepo.prototype, 'near');
    const listing = vi.spyOn(DeadPropertiesRepo.prototype, 'ofListing');
    const body = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:prop><D:getcontentlength/><D:resourcetype/></D:prop></D:propfind>';
    const res = await dav(server, 'PROPFIND', davPath(folder, true), { auth: master.auth, headers: { depth: '1' }, body });
    expect(res.status).toBe(207);
    expect(responseOf(res.text, `/dav${folder}/파일 0012.txt`)).toContain('<D:getcontentlength>22</D:getcontentlength>');
    expect(near).not.toHaveBeenCalled();
    expect(listing).not.toHaveBeenCalled();
  });
});
