import { apiCalls } from '@bogwan/contracts';
import { SignJWT } from 'jose';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, describe, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { connect, next } from './sockets.js';
import { bytesOf, upload } from './transfer-helpers.js';

const SECRET = 's'.repeat(40);

describeEachDialect('realtime on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_SECRET: SECRET });
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });
  const open = async (auth: Record<string, unknown>) => {
    const c = await connect(server.url, auth);
    sockets.push(c.socket);
    return c;
  };

  it('refuses a socket without a token, with a bare user id, a forged or an expired token', async () => {
    expect((await open({})).error).toBe('unauthorized');
    expect((await open({ userId: user.user._id })).error).toBe('unauthorized');
    expect((await open({ token: 'garbage' })).error).toBe('unauthorized');
    const sid = JSON.parse(Buffer.from(user.token.split('.')[1]!, 'base64url').toString()).sid;
    const expired = await new SignJWT({ sid, typ: 'access' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(user.user._id)
      .setIssuer('bogwan')
      .setAudience('bogwan-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 60)
      .sign(new TextEncoder().encode(SECRET));
    expect((await open({ token: expired })).error).toBe('unauthorized');
    expect((await open({ token: user.token })).error).toBeUndefined();
  });

  it('pushes a task and its completion notification to the owner only, the file name as a parameter', async () => {
    const mine = await open({ token: user.token });
    const other = await open({ token: master.token });
    let leaked = false;
    other.socket.on('notification', () => (leaked = true));
    other.socket.on('task', () => (leaked = true));

    const taskEvent = next<{ cacheKey: string; status: string }>(mine.socket, 'task');
    const task = await server.app.tasks.start({ type: 'upload', ownerId: user.user._id, name: '<img src=x onerror=alert(1)>보고서.hwp' });
    expect((await taskEvent).cacheKey).toBe(`upload_${user.user._id}_${task.id}`);

    const done = next<{ key: string; params: Record<string, unknown>; level: number; read: boolean }>(mine.socket, 'notification');
    await server.app.tasks.update(task.id, { progress: 100, clientPath: '/Team' });
    const note = await done;
    expect(note.read).toBe(false);
    // The file name is a parameter, never part of a markup string: the web shows it as text.
    expect(note).toMatchObject({ key: 'note_upload_batch', params: { folder: '/Team', name: '<img src=x onerror=alert(1)>보고서.hwp', count: 1 } });
    await new Promise((r) => setTimeout(r, 200));
    expect(leaked).toBe(false);

    const cache = await call(server, apiCalls.task_cache, { token: user.token });
    expect(cache.body[`upload_${user.user._id}_${task.id}`]).toMatchObject({ status: 'completed', progress: 100, clientPath: '/Team' });
    expect(Object.keys((await call(server, apiCalls.task_cache, { token: master.token })).body)).toEqual([]);
    const cacheKey = `upload_${user.user._id}_${task.id}`;
    expect((await callRefused(server, apiCalls.task_delete, { token: master.token, params: { cacheKey } })).status).toBe(404);
    expect((await call(server, apiCalls.task_delete, { token: user.token, params: { cacheKey } })).status).toBe(204);
  });

  it('an upload is a task of its owner: progress, completion with its folder, and a notification', async () => {
    const made = await call(server, apiCalls.folder_create, { token: master.token, body: { name: '팀', path: '/' } });
    expect(made.status).toBe(200);
    const mine = await open({ token: master.token });
    const updates: { status: string; progress: number | null; clientPath: string; name: string }[] = [];
    mine.socket.on('task', (t) => updates.push(t));
    const notified = next<{ key: string; params: Record<string, unknown> }>(mine.socket, 'notification');
    const res = await upload(server, master.token, '/팀', '회의록.txt', bytesOf(1000));
    expect(res.status).toBe(200);
    expect((await notified).params).toMatchObject({ folder: '/팀', name: '회의록.txt' });
    const last = updates.at(-1)!;
    expect(last).toMatchObject({ name: '회의록.txt', status: 'completed', progress: 100, clientPath: '/팀' });
    const cache = await call(server, apiCalls.task_cache, { token: master.token });
    const entry = Object.values(cache.body).find((t) => t.name === '회의록.txt');
    expect(entry).toMatchObject({ type: 'upload', status: 'completed' });
  });

  it('notifications: own only, read one, read all; a stored script never survives', async () => {
    const { NotificationsService } = await import('../src/modules/notifications/notifications.service.js');
    expect(NotificationsService).toBeTruthy();
    const list = await call(server, apiCalls.notification_list, { token: user.token, query: { userId: user.user._id, read: 'false' } });
    expect(list.status).toBe(200);
    expect(list.body.length).toBeGreaterThan(0);
    for (const n of list.body) expect(n.userId).toBe(user.user._id);

    expect((await callRefused(server, apiCalls.notification_list, { token: master.token, query: { userId: user.user._id } })).status).toBe(403);
    const id = list.body[0]!._id;
    expect((await callRefused(server, apiCalls.notification_read, { token: master.token, body: { _id: id, read: true } })).status).toBe(404);
    expect((await call(server, apiCalls.notification_read, { token: user.token, body: { _id: id, read: true } })).status).toBe(200);
    await call(server, apiCalls.notification_read_all, { token: user.token });
    const unread = await call(server, apiCalls.notification_list, { token: user.token, query: { read: 'false' } });
    expect(unread.body).toEqual([]);
  });

  it('sanitises notification markup: <script> and onerror= never stored', async () => {
    const { sanitizeMessage } = await import('../src/modules/notifications/notifications.service.js');
    const cleaned = sanitizeMessage('<b>ok</b><script>alert(1)</script><img src=x onerror="alert(1)"><span onclick="x()">s</span>');
    expect(cleaned).toBe('<b>ok</b><span>s</span>');
  });

  it('notices: written and deleted by administrators only, title and content required', async () => {
    expect((await callRefused(server, apiCalls.notice_create, { token: user.token, body: { title: 't', content: 'c' } })).status).toBe(403);
    expect((await callRefused(server, apiCalls.notice_create, { token: master.token, body: { title: ' ', content: 'c' } })).body).toEqual({
      statusCode: 400,
      message: 'notice_title_required',
    });
    // Without the content the contract requires: raw on purpose.
    expect((await server.request('POST', '/api/notice', { token: master.token, body: { title: 't' } })).body.message).toBe('notice_content_required');
    const made = await call(server, apiCalls.notice_create, { token: master.token, body: { title: '점검 안내', content: '토요일 02시', creator: 'forged' } });
    expect(made.status).toBe(200);
    expect(made.body.creator).toBe('관리자');
    const seen = await call(server, apiCalls.notice_list, { token: user.token });
    expect(seen.body[0]).toMatchObject({ title: '점검 안내', content: '토요일 02시' });
    expect((await callRefused(server, apiCalls.notice_delete, { token: user.token, params: { id: made.body._id } })).status).toBe(403);
    expect((await call(server, apiCalls.notice_delete, { token: master.token, params: { id: made.body._id } })).status).toBe(204);
  });

  it('activity log: users read their own, administrators anyone\u2019s', async () => {
    const own = await call(server, apiCalls.event_list, { token: user.token, query: { skip: 0, limit: 1000 } });
    expect(own.status).toBe(200);
    expect(own.body.items.length).toBeGreaterThan(0);
    for (const e of own.body.items) expect(e.userId).toBe(user.user._id);
    expect((await callRefused(server, apiCalls.event_list, { token: user.token, query: { userId: master.user._id } })).status).toBe(403);
    const theirs = await call(server, apiCalls.event_list, { token: master.token, query: { userId: user.user._id } });
    expect(theirs.body.items.every((e) => e.userId === user.user._id)).toBe(true);
    expect((await callRefused(server, apiCalls.event_list, { token: master.token, query: { limit: 1001 } })).status).toBe(400);
  });

  it('cancels a running snapshot for its owner or an administrator, stopping the work', async () => {
    let stopped = false;
    const task = await server.app.tasks.start({ type: 'snapshot', ownerId: master.user._id, name: 'nightly', snapshotId: 'snap-1' }, () => {
      stopped = true;
    });
    expect((await callRefused(server, apiCalls.snapshot_cancel, { token: user.token, params: { id: 'snap-1' } })).body).toEqual({
      statusCode: 409,
      message: 'task_not_cancelable',
    });
    expect((await call(server, apiCalls.snapshot_cancel, { token: master.token, params: { id: 'snap-1' } })).status).toBe(200);
    expect(stopped).toBe(true);
    const cache = await call(server, apiCalls.task_cache, { token: master.token });
    expect(cache.body[`snapshot_${master.user._id}_${task.id}`]!.status).toBe('canceled');
    expect((await callRefused(server, apiCalls.snapshot_cancel, { token: master.token, params: { id: 'snap-1' } })).status).toBe(409);
    expect((await callRefused(server, apiCalls.restore_cancel, { token: master.token, params: { id: 'none' } })).status).toBe(409);
  });
});

describe('socket session expiry', () => {
  it('tells the socket its session expired and closes it', async () => {
    const server = await startServer('sqlite', { BOGWAN_ACCESS_TOKEN_TTL: '2' });
    try {
      const master = await setupMaster(server);
      const { socket, error } = await connect(server.url, { token: master.token });
      expect(error).toBeUndefined();
      const expired = next(socket, 'session_expired', 5000);
      const closed = next<string>(socket, 'disconnect', 6000);
      await expired;
      expect(await closed).toBe('io server disconnect');
    } finally {
      await server.close();
    }
  });
});
