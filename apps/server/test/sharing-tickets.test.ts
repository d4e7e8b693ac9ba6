import { apiCalls, SHARE_TOKEN_HEADER } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AccessLogRepo } from '../src/modules/access-log/access-log.repo.js';
import { resolveServerSecret } from '../src/modules/auth/server-secret.js';
import { DOWNLOAD_TICKET_TTL_MS, ShareDownloadTickets } from '../src/modules/shares/download-tickets.js';
import { makeFile, makeFolder, makeShare, makeUser } from './factories.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { eventually, publicShare, type Visitor } from './sharing-helpers.js';
import { bytesOf, readZip, upload } from './transfer-helpers.js';

describeEachDialect('share download tickets on $dialect', (dialect) => {
  let server: TestServer;
  let masterToken: string;
  let pub: ReturnType<typeof publicShare>;
  const report = bytesOf(300_000, 'report');

  beforeAll(async () => {
    server = await startServer(dialect);
    pub = publicShare(server);
    masterToken = (await setupMaster(server)).token;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** What each test starts from, its own: an owner with a root holding report.bin and Docs/memo.txt. */
  const team = async () => {
    const owner = await makeUser(server);
    const root = await makeFolder(server, masterToken);
    const docs = await makeFolder(server, owner.token, { parent: root.path, name: 'Docs' });
    const file = await makeFile(server, owner.token, root.path, { name: 'report.bin', bytes: report });
    const memo = await makeFile(server, owner.token, docs.path, { name: 'memo.txt', bytes: Buffer.from('memo') });
    const share = (body: Record<string, unknown>) => makeShare(server, owner.token, body.path as string, body);
    return { owner, root, docs, file, memo, share };
  };
  const ticketOptions = (key: string, path: string, opts: Visitor) => ({
    params: { key },
    body: { path },
    token: opts.token,
    headers: opts.shareToken ? { [SHARE_TOKEN_HEADER]: opts.shareToken } : undefined,
  });
  const ticketFor = (key: string, path = '/', opts: Visitor = {}) => call(server, apiCalls.share_public_download_ticket, ticketOptions(key, path, opts));
  const ticketRefused = (key: string, path = '/', opts: Visitor = {}) =>
    callRefused(server, apiCalls.share_public_download_ticket, ticketOptions(key, path, opts));
  /** What the browser does with a ticket: a plain GET, no token of any kind (raw: the answer is the file's bytes). */
  const byTicket = async (ticket: string) => {
    const res = await fetch(`${server.url}/api/share/public/download?ticket=${encodeURIComponent(ticket)}`);
    const bytes = Buffer.from(await res.arrayBuffer());
    return { status: res.status, headers: res.headers, bytes, message: res.ok ? undefined : (JSON.parse(bytes.toString()) as { message: string }).message };
  };

  it('a ticket serves one download from a URL carrying nothing else, counted when it completes', async () => {
    const { docs, file, share } = await team();
    const link = await share({ path: file.path, password: 'open sesame', downloadLimit: 2 });
    expect((await ticketRefused(link.key)).body).toEqual({ statusCode: 401, message: 'share_password_required' });
    const shareToken = (await pub.unlocked(link.key, 'open sesame')).body.shareToken;
    const issued = await ticketFor(link.key, '/', { shareToken });
    expect(issued.status).toBe(200);
    expect(issued.headers.get('cache-control')).toBe('no-store');
    // The share token may also come in the body (the web page sends it so).
    const inBody = await call(server, apiCalls.share_public_download_ticket, { params: { key: link.key }, body: { path: '/', shareToken } });
    expect(inBody.body.ticket).toEqual(expect.any(String));
    // Asking for a ticket takes no download.
    expect((await pub.info(link.key, { shareToken })).body.downloadsLeft).toBe(2);

    const got = await byTicket(issued.body.ticket);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(report)).toBe(true);
    expect(got.headers.get('content-disposition')).toContain('attachment');
    expect((await byTicket(issued.body.ticket)).status).toBe(401);
    await eventually(async () => (await pub.info(link.key, { shareToken })).body.downloadsLeft === 1);

    const folder = await share({ path: docs.path });
    const zip = await byTicket((await ticketFor(folder.key)).body.ticket);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(readZip(zip.bytes).map((e) => e.name)).toEqual(['Docs/', 'Docs/memo.txt']);
    expect((await byTicket((await ticketFor(folder.key, '/memo.txt')).body.ticket)).bytes.toString()).toBe('memo');
    expect((await ticketRefused(folder.key, '/nothing.txt')).status).toBe(404);
  });

  it('the counting rules hold: two tickets of a one-download link give one file', async () => {
    const { file, share } = await team();
    const link = await share({ path: file.path, downloadLimit: 1 });
    const tickets = [(await ticketFor(link.key)).body.ticket, (await ticketFor(link.key)).body.ticket];
    const answers = await Promise.all(tickets.map(byTicket));
    expect(answers.map((a) => a.status).sort()).toEqual([200, 410]);
    expect(answers.find((a) => a.status === 410)!.message).toBe('share_download_exceeded');
    expect((await ticketRefused(link.key)).body.message).toBe('share_download_exceeded');
  });

  it('a ticket is bound to its link: revoked, password changed or item replaced ends it', async () => {
    const { owner, docs, file, memo, share } = await team();
    const revoked = await share({ path: file.path });
    const first = (await ticketFor(revoked.key)).body.ticket;
    expect((await call(server, apiCalls.share_delete, { token: owner.token, params: { id: revoked._id } })).status).toBe(200);
    expect(await byTicket(first)).toMatchObject({ status: 401, message: 'unauthorized_message' });

    const guarded = await share({ path: file.path, password: 'first password' });
    const shareToken = (await pub.unlocked(guarded.key, 'first password')).body.shareToken;
    const second = (await ticketFor(guarded.key, '/', { shareToken })).body.ticket;
    await call(server, apiCalls.share_update, { token: owner.token, params: { id: guarded._id }, body: { scope: 'anyone', password: 'second password' } });
    expect((await byTicket(second)).status).toBe(401);

    const folder = await share({ path: docs.path });
    const third = (await ticketFor(folder.key, '/memo.txt')).body.ticket;
    expect((await call(server, apiCalls.file_trash, { token: owner.token, body: { paths: [memo.path] } })).status).toBe(200);
    expect((await upload(server, owner.token, docs.path, 'memo.txt', Buffer.from('another memo'))).status).toBe(200);
    expect((await byTicket(third)).status).toBe(401);

    // Altered tickets are refused.
    const fourth = (await ticketFor(folder.key, '/memo.txt')).body.ticket;
    expect((await byTicket(`${fourth.slice(0, -2)}${fourth.endsWith('AA') ? 'BB' : 'AA'}`)).status).toBe(401);
    expect((await byTicket(fourth)).bytes.toString()).toBe('another memo');
  });

  it('a ticket carries the sign-in a scope needs and lasts one minute', async () => {
    const { file, share } = await team();
    const friend = await makeUser(server);
    const link = await share({ path: file.path, scope: 'specific', users: [friend.user._id] });
    expect((await ticketRefused(link.key)).body.message).toBe('share_login_required');
    const ticket = (await ticketFor(link.key, '/', { token: friend.token })).body.ticket;
    expect((await byTicket(ticket)).bytes.equals(report)).toBe(true);

    // The same ticket made with the server's secret: refused once its minute is over.
    const secret = resolveServerSecret(server.app.config.secret, server.app.config.dataDir);
    const claims = new ShareDownloadTickets(secret).read((await ticketFor(link.key, '/', { token: friend.token })).body.ticket)!;
    const issuedAt = (offset: number) => new ShareDownloadTickets(secret, () => Date.now() + offset).issue(claims, '');
    expect((await byTicket(issuedAt(-DOWNLOAD_TICKET_TTL_MS - 1000))).status).toBe(401);
    expect((await byTicket(issuedAt(-DOWNLOAD_TICKET_TTL_MS + 10_000))).status).toBe(200);
  });

  it('the access log keeps no ticket', async () => {
    const { memo, share } = await team();
    const link = await share({ path: memo.path });
    const ticket = (await ticketFor(link.key)).body.ticket;
    expect((await byTicket(ticket)).status).toBe(200);
    await server.app.accessLog.flush();
    const rows = await new AccessLogRepo(server.app.db).list(0, 200);
    const urls = rows.map((r) => r.url).filter((url) => url.startsWith('/api/share/public/download'));
    expect(urls.length).toBeGreaterThan(0);
    expect(urls.every((url) => url === '/api/share/public/download?ticket=…')).toBe(true);
    expect(rows.some((r) => r.url.includes(ticket.slice(0, 20)))).toBe(false);
  });
});
