import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { publicShare } from './sharing-helpers.js';
import { fetchBytes, readZip, upload } from './transfer-helpers.js';

describeEachDialect('zips hold only what may be read and downloaded, on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'zipper@example.com');
    for (const [name, path] of [
      ['Team', '/'],
      ['Open', '/Team'],
      ['Secret', '/Team'],
      ['Inner', '/Team/Secret'],
      ['Peek', '/Team'],
    ]) {
      await call(server, apiCalls.folder_create, { token: master.token, body: { name: name!, path: path! } });
    }
    for (const [folder, name, text] of [
      ['/Team', 'top.txt', 'top'],
      ['/Team/Open', 'deep.txt', 'deep'],
      ['/Team/Secret', 'plan.txt', 'secret plan'],
      ['/Team/Secret/Inner', 'inner.txt', 'inner'],
      ['/Team/Peek', 'look.txt', 'look only'],
    ]) {
      expect((await upload(server, master.token, folder!, name!, Buffer.from(text!))).status).toBe(200);
    }
    // READ and DOWNLOAD on /Team (the user defaults); an entry on /Team/Secret takes both
    // away, one on /Team/Peek leaves READ but takes DOWNLOAD; /Team/Secret/Inner gives
    // them back under a folder the user cannot read.
    const entry = (path: string, permissions: string[]) =>
      call(server, apiCalls.resource_update, { token: master.token, body: { path, users: [{ entity: user.user._id, permissions }] } });
    await entry('/Team/Secret', ['PREVIEW']);
    await entry('/Team/Peek', ['READ', 'PREVIEW']);
    await entry('/Team/Secret/Inner', ['READ', 'DOWNLOAD']);
  });
  afterAll(async () => {
    await server?.close();
  });

  const visible = ['Team/', 'Team/Open/', 'Team/Open/deep.txt', 'Team/top.txt'];
  const namesOf = (zip: Buffer) =>
    readZip(zip)
      .map((e) => e.name)
      .sort();

  it('a folder download leaves out subfolders whose entry removes READ or DOWNLOAD, and all under them', async () => {
    const res = await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/Team')}`);
    expect(res.status).toBe(200);
    expect(namesOf(res.bytes)).toEqual(visible);
    expect(res.bytes.includes(Buffer.from('secret plan'))).toBe(false);
    expect(
      readZip(res.bytes)
        .find((e) => e.name === 'Team/Open/deep.txt')!
        .data.toString(),
    ).toBe('deep');

    // A selection walks the same way; the MASTER still gets everything.
    const selection = await fetchBytes(
      server,
      user.token,
      `/api/file/download?paths=${encodeURIComponent('/Team/Open')}&paths=${encodeURIComponent('/Team/top.txt')}`,
    );
    expect(namesOf(selection.bytes)).toEqual(['Open/', 'Open/deep.txt', 'top.txt']);
    const all = await fetchBytes(server, master.token, `/api/file/download?path=${encodeURIComponent('/Team')}`);
    expect(namesOf(all.bytes)).toEqual(
      [...visible, 'Team/Peek/', 'Team/Peek/look.txt', 'Team/Secret/', 'Team/Secret/Inner/', 'Team/Secret/Inner/inner.txt', 'Team/Secret/plan.txt'].sort(),
    );
  });

  it("a share link's zip holds only what its creator may read and download", async () => {
    const link = await call(server, apiCalls.share_create, { token: user.token, body: { path: '/Team', scope: 'anyone' } });
    expect(link.status).toBe(200);
    const pub = publicShare(server);
    const zip = await pub.download(link.body.key);
    expect(zip.status).toBe(200);
    expect(namesOf(zip.bytes)).toEqual(visible);
    expect(zip.bytes.includes(Buffer.from('secret plan'))).toBe(false);
    expect((await pub.download(link.body.key, '/Secret/plan.txt')).status).toBe(403);
  });

  it('a locked subfolder still needs an approval for the zip around it, readable or not', async () => {
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Team/Secret', lock: true } })).body.lock).toBe(true);
    const res = await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/Team')}`);
    expect(res.status).toBe(403);
    expect(JSON.parse(res.bytes.toString()).message).toBe('secure_approval_required');
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Team/Secret', lock: false } })).body.lock).toBe(false);
  });
});
