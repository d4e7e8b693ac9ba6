import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, upload } from './transfer-helpers.js';

/** A media element's request: no Authorization header, only the URL (and a Range); raw, to read the bytes. */
async function stream(server: TestServer, path: string, ticket: string, range?: string) {
  const res = await fetch(`${server.url}/api/file/preview/stream?path=${encodeURIComponent(path)}&ticket=${encodeURIComponent(ticket)}`, {
    headers: range ? { range } : {},
  });
  const bytes = Buffer.from(await res.arrayBuffer());
  const message = res.headers.get('content-type')?.startsWith('application/json') ? (JSON.parse(bytes.toString()) as { message: string }).message : undefined;
  return { status: res.status, headers: res.headers, bytes, message };
}

describeEachDialect('video previews streamed with a ticket on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  const video = bytesOf(3 * 1024 * 1024 + 17, 'clip');

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'viewer@example.com');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Media', path: '/' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Locked', path: '/Media' } });
    expect((await upload(server, master.token, '/Media', 'clip.mp4', video)).status).toBe(200);
    expect((await upload(server, master.token, '/Media/Locked', 'secret.mp4', video)).status).toBe(200);
    await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Media/Locked', lock: true } });
  });
  afterAll(async () => {
    await server?.close();
  });

  const ticketFor = (path: string, token = user.token) => call(server, apiCalls.file_preview_ticket, { token, query: { path } });
  const ticketRefused = (path: string, token = user.token) => callRefused(server, apiCalls.file_preview_ticket, { token, query: { path } });

  it('a ticket lets a media element seek through the file without the Authorization header', async () => {
    const issued = await ticketFor('/Media/clip.mp4');
    expect(issued.status).toBe(200);
    const ticket = issued.body.ticket!;
    expect(ticket.length).toBeGreaterThan(40);

    const whole = await stream(server, '/Media/clip.mp4', ticket);
    expect(whole.status).toBe(200);
    expect(whole.bytes.equals(video)).toBe(true);
    expect(whole.headers.get('content-type')).toBe('video/mp4');
    expect(whole.headers.get('x-content-type-options')).toBe('nosniff');
    expect(whole.headers.get('content-security-policy')).toMatch(/^sandbox/);

    const middle = await stream(server, '/Media/clip.mp4', ticket, 'bytes=2000000-2000099');
    expect(middle.status).toBe(206);
    expect(middle.headers.get('content-range')).toBe(`bytes 2000000-2000099/${video.length}`);
    expect(middle.bytes.equals(video.subarray(2_000_000, 2_000_100))).toBe(true);

    // The ticket never reaches the system log.
    await new Promise((resolve) => setTimeout(resolve, 1500));
    const logged = await call(server, apiCalls.system_log, { token: master.token, query: { url: 'preview/stream', limit: 50 } });
    expect(logged.status).toBe(200);
    expect(logged.text).toContain('/api/file/preview/stream?path=');
    expect(logged.text).not.toContain(ticket);
  });

  it('a ticket opens only its own file, only with PREVIEW, only while the session lives', async () => {
    const ticket = (await ticketFor('/Media/clip.mp4')).body.ticket!;
    // Forged, truncated or missing tickets; another file under a valid ticket.
    expect((await stream(server, '/Media/clip.mp4', `${ticket.slice(0, -4)}AAAA`)).status).toBe(401);
    expect((await stream(server, '/Media/clip.mp4', 'not-a-ticket')).status).toBe(401);
    // Without the ticket the contract requires: raw on purpose.
    const missing = await fetch(`${server.url}/api/file/preview/stream?path=${encodeURIComponent('/Media/clip.mp4')}`);
    expect(missing.status).toBe(400);
    await upload(server, master.token, '/Media', 'other.mp4', bytesOf(1000, 'other'));
    expect((await stream(server, '/Media/other.mp4', ticket)).status).toBe(403);
    // An access token is not a ticket.
    expect((await stream(server, '/Media/clip.mp4', user.token)).status).toBe(401);
    // Path traversal is refused like everywhere else.
    expect((await stream(server, '/Media/../Media/clip.mp4', ticket)).message).toBe('invalid_path');

    // PREVIEW taken away: the same ticket stops at once.
    const restricted = JSON.stringify({ user: ['READ'], admin: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE'] });
    await server.app.db
      .insertInto('settings')
      .values({ key: 'permission', value: restricted, updated_at: new Date().toISOString() })
      .onConflict((oc) => oc.column('key').doUpdateSet({ value: restricted }))
      .execute();
    try {
      expect((await stream(server, '/Media/clip.mp4', ticket)).message).toBe('no_access_warning');
      expect((await ticketRefused('/Media/clip.mp4')).body.message).toBe('no_access_warning');
    } finally {
      await server.app.db.deleteFrom('settings').where('key', '=', 'permission').execute();
    }
    expect((await stream(server, '/Media/clip.mp4', ticket)).status).toBe(200);

    // Signing out ends the session the ticket stands for.
    expect((await call(server, apiCalls.logout, { token: user.token, body: {} })).status).toBe(204);
    expect((await stream(server, '/Media/clip.mp4', ticket)).status).toBe(401);
    user = await signInAs(server, 'viewer2@example.com');
  });

  it('files in a secure folder get no ticket and are never streamed in pieces', async () => {
    const none = await ticketRefused('/Media/Locked/secret.mp4');
    expect(none.body.message).toBe('secure_approval_required');
    // With an approval of one download: no ticket (the preview fetches once), and the use is kept.
    const request = await call(server, apiCalls.request_create, {
      token: user.token,
      body: { type: 'download', reason: '검토', paths: ['/Media/Locked/secret.mp4'], downloadLimit: 1 },
    });
    expect(
      (await call(server, apiCalls.request_update, { token: master.token, params: { id: request.body._id }, body: { action: 'approve' } })).body.status,
    ).toBe('APPROVED');
    expect((await ticketFor('/Media/Locked/secret.mp4')).body).toEqual({ ticket: null });
    const once = await fetchBytes(server, user.token, `/api/file/preview?path=${encodeURIComponent('/Media/Locked/secret.mp4')}`);
    expect(once.status).toBe(200);
    expect(once.bytes.equals(video)).toBe(true);

    // A ticket issued before the folder was locked stops working once it is.
    const early = (await ticketFor('/Media/clip.mp4')).body.ticket!;
    await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Media', lock: true } });
    try {
      expect((await stream(server, '/Media/clip.mp4', early)).message).toBe('secure_approval_required');
    } finally {
      await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Media', lock: false } });
    }
  });
});
