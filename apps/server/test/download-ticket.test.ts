import { apiCalls, type DownloadTicketRequest } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { recordsOf } from './audit-actions-helpers.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, readZip, sha256, upload } from './transfer-helpers.js';

describeEachDialect('file download tickets on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let owner: Awaited<ReturnType<typeof signInAs>>;
  let stranger: Awaited<ReturnType<typeof signInAs>>;
  const report = bytesOf(3_000_000, 'report');
  const memo = Buffer.from('memo');

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    owner = await signInAs(server, 'owner@example.com');
    stranger = await signInAs(server, 'stranger@example.com');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Private', path: '/' } });
    expect((await upload(server, owner.token, '/Team', 'report.bin', report)).status).toBe(200);
    expect((await upload(server, owner.token, '/Team', 'memo.txt', memo)).status).toBe(200);
    expect((await upload(server, master.token, '/Private', 'secret.txt', Buffer.from('secret'))).status).toBe(200);
    // Only administrators reach /Private: no entry for users there.
    const denied = await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: '/Private', users: [{ entity: stranger.user._id, permissions: [] }] },
    });
    expect(denied.status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  const ticketFor = (token: string, body: DownloadTicketRequest) => call(server, apiCalls.file_download_ticket, { token, body });
  const ticketRefused = (token: string, body: DownloadTicketRequest) => callRefused(server, apiCalls.file_download_ticket, { token, body });
  /** What the browser's download manager does with the address: a plain GET, no token. */
  const byUrl = async (url: string, headers: Record<string, string> = {}) => {
    const res = await fetch(server.url + url, { headers });
    return { status: res.status, headers: res.headers, bytes: Buffer.from(await res.arrayBuffer()) };
  };
  const downloadsOf = async (path: string, afterSeq: number) =>
    (await recordsOf(server, { actions: ['file.download'], afterSeq })).filter((r) => r.targetPath === path);

  it('hands one download to an address that carries only the ticket; the same address cannot start it twice', async () => {
    const issued = await ticketFor(owner.token, { path: '/Team/report.bin' });
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    const url = issued.body.url;
    expect(url).toMatch(/^\/api\/file\/download\?path=%2FTeam%2Freport\.bin&ticket=/);
    const got = await byUrl(url);
    expect(got.status).toBe(200);
    expect(sha256(got.bytes)).toBe(sha256(report));
    expect(got.headers.get('content-disposition')).toContain('attachment');
    expect(got.headers.get('accept-ranges')).toBe('bytes');
    expect((await byUrl(url)).status).toBe(401);
    expect((await byUrl(url, { range: 'bytes=0-' })).status).toBe(401);
    // Without a ticket the address still needs the bearer token.
    expect((await byUrl('/api/file/download?path=%2FTeam%2Freport.bin')).status).toBe(401);
    expect((await fetchBytes(server, owner.token, '/api/file/download?path=%2FTeam%2Freport.bin')).bytes.equals(report)).toBe(true);
  });

  it('resumes an interrupted download with Range under the same ticket, and the audit records one download', async () => {
    const before = (await recordsOf(server)).at(-1)!.seq;
    const { url } = (await ticketFor(owner.token, { path: '/Team/report.bin' })).body;
    // A never-used ticket cannot fetch the file's tail.
    const unused = (await ticketFor(owner.token, { path: '/Team/report.bin' })).body.url;
    expect((await byUrl(unused, { range: 'bytes=1000000-' })).status).toBe(401);

    // The browser gets the first megabyte, then the connection breaks.
    const controller = new AbortController();
    const first = await fetch(server.url + url, { signal: controller.signal });
    expect(first.status).toBe(200);
    const reader = first.body!.getReader();
    const head: Buffer[] = [];
    let received = 0;
    while (received < 1_000_000) {
      const { value, done } = await reader.read();
      if (done) break;
      head.push(Buffer.from(value));
      received += value.length;
    }
    controller.abort();
    await reader.cancel().catch(() => {});
    const start = Buffer.concat(head);

    const etag = first.headers.get('etag')!;
    const rest = await byUrl(url, { range: `bytes=${start.length}-`, 'if-range': etag });
    expect(rest.status).toBe(206);
    expect(rest.headers.get('content-range')).toBe(`bytes ${start.length}-${report.length - 1}/${report.length}`);
    expect(sha256(Buffer.concat([start, rest.bytes]))).toBe(sha256(report));
    // A second resume (another break) still works.
    expect((await byUrl(url, { range: `bytes=${report.length - 10}-` })).bytes.equals(report.subarray(report.length - 10))).toBe(true);

    expect(await downloadsOf('/Team/report.bin', before)).toHaveLength(1);
  });

  it('is bound to its account, session, address and content', async () => {
    // No DOWNLOAD where the file is: no ticket.
    expect((await ticketRefused(stranger.token, { path: '/Private/secret.txt' })).status).toBe(403);
    expect((await ticketRefused(stranger.token, { path: '/Team/nothing.txt' })).status).toBe(404);

    // The address cannot be pointed at another file, even one the account may download.
    const { url } = (await ticketFor(owner.token, { path: '/Team/memo.txt' })).body;
    expect((await byUrl(url.replace('memo.txt', 'report.bin'))).status).toBe(401);
    // Another account's bearer token does not widen it either: the ticket speaks for its own account.
    const masterTicket = (await ticketFor(master.token, { path: '/Private/secret.txt' })).body.url;
    expect((await byUrl(masterTicket.replace('Private%2Fsecret.txt', 'Team%2Fmemo.txt'))).status).toBe(401);

    // A file replaced since the ticket was issued is not served under it.
    const stale = (await ticketFor(owner.token, { path: '/Team/memo.txt' })).body.url;
    expect((await upload(server, owner.token, '/Team', 'memo-2.txt', Buffer.from('second'))).status).toBe(200);
    const other = await server.app.fileTree.resolve('/Team/memo-2.txt');
    await server.app.db
      .updateTable('nodes')
      .set({ content_hash: other!.content_hash, blob_key: other!.blob_key, size: other!.size })
      .where('id', '=', (await server.app.fileTree.resolve('/Team/memo.txt'))!.id)
      .execute();
    expect((await byUrl(stale)).status).toBe(401);
    const fresh = (await ticketFor(owner.token, { path: '/Team/memo.txt' })).body.url;
    expect((await byUrl(fresh)).bytes.toString()).toBe('second');

    // Signing out ends the tickets of that session.
    const session = await signInAs(server, 'leaver@example.com');
    const leaverTicket = (await ticketFor(session.token, { path: '/Team/report.bin' })).body.url;
    expect((await call(server, apiCalls.logout, { token: session.token, body: { _id: session.user._id } })).status).toBe(204);
    expect((await byUrl(leaverTicket)).status).toBe(401);
  });

  it('streams a selection as a zip once, and a zip is never resumed', async () => {
    const { url } = (await ticketFor(owner.token, { paths: ['/Team/report.bin', '/Team/memo-2.txt'] })).body;
    const zip = await byUrl(url);
    expect(zip.status).toBe(200);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(
      readZip(zip.bytes)
        .map((e) => e.name)
        .sort(),
    ).toEqual(['memo-2.txt', 'report.bin']);
    expect((await byUrl(url, { range: 'bytes=100-' })).status).toBe(401);
    expect((await byUrl(url)).status).toBe(401);
  });
  it('refuses a ticket for a file in a secure folder until a download request is approved', async () => {
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '기밀', path: '/Team' } })).status).toBe(200);
    expect((await upload(server, master.token, '/Team/기밀', 'plan.txt', Buffer.from('설계'))).status).toBe(200);
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Team/기밀', lock: true } })).status).toBe(200);
    const refused = await ticketRefused(owner.token, { path: '/Team/기밀/plan.txt' });
    expect(refused.status).toBe(403);
    expect(refused.body.message).toBe('secure_approval_required');
    const asked = await call(server, apiCalls.request_create, {
      token: owner.token,
      body: { type: 'download', reason: '검토', paths: ['/Team/기밀/plan.txt'] },
    });
    expect((await call(server, apiCalls.request_update, { token: master.token, params: { id: asked.body._id }, body: { action: 'approve' } })).status).toBe(
      200,
    );
    const issued = await ticketFor(owner.token, { path: '/Team/기밀/plan.txt' });
    expect(issued.status).toBe(200);
    // Asking for the ticket spent nothing of the approval: the download itself goes through.
    const got = await byUrl(issued.body.url);
    expect(got.status).toBe(200);
    expect(got.bytes.toString()).toBe('설계');
  });
});
