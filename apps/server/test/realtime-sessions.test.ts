import { apiCalls, type AuthResponse } from '@bogwan/contracts';
import type { Socket } from 'socket.io-client';
import { afterAll, afterEach, beforeAll, expect, it } from 'vitest';
import { AdminCommands } from '../src/cli/admin-commands.js';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { connect, next } from './sockets.js';

/** What a socket received, and its disconnect reason once closed. */
interface Watched {
  socket: Socket;
  events: string[];
  closed: Promise<string>;
}

/** The reason the socket was closed, or a failure when it stays open. */
function closedWithin(watched: Watched, ms = 3000): Promise<string> {
  return Promise.race([watched.closed, new Promise<string>((_, reject) => setTimeout(() => reject(new Error(`socket still open after ${ms} ms`)), ms))]);
}

describeEachDialect('sockets of ended sessions on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  const sockets: Socket[] = [];
  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterEach(() => {
    for (const s of sockets.splice(0)) s.disconnect();
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Another session (device) of an existing account. */
  const login = async (email: string) => {
    const res = await call(server, apiCalls.login, { body: { email, password: GOOD_PASSWORD } });
    expect(res.status).toBe(200);
    // These accounts have no second factor: the sign-in answers a session, not a challenge.
    return res.body as AuthResponse;
  };
  const watch = async (token: string): Promise<Watched> => {
    const { socket, error } = await connect(server.url, { token });
    expect(error).toBeUndefined();
    sockets.push(socket);
    const events: string[] = [];
    socket.on('task', () => events.push('task'));
    socket.on('notification', () => events.push('notification'));
    socket.on('session_expired', () => events.push('session_expired'));
    return { socket, events, closed: new Promise<string>((resolve) => socket.once('disconnect', resolve)) };
  };
  /** Raises a task and its notification for the user; answers once the given socket saw them. */
  const notify = async (userId: string, seenBy: Watched) => {
    const seen = next(seenBy.socket, 'notification');
    const task = await server.app.tasks.start({ type: 'upload', ownerId: userId, name: 'report.txt' });
    await server.app.tasks.update(task.id, { progress: 100, clientPath: '/' });
    await seen;
  };
  const refusedAgain = async (token: string) => {
    const again = await connect(server.url, { token });
    sockets.push(again.socket);
    return again.error;
  };

  it('signing out closes that session’s sockets only; no later event reaches them', async () => {
    const first = await signInAs(server, 'signout@example.com');
    const second = await login('signout@example.com');
    const signedOut = await watch(first.token);
    const otherDevice = await watch(second.token);
    const otherUser = await watch(master.token);

    expect((await call(server, apiCalls.logout, { token: first.token, body: { _id: first.user._id } })).status).toBe(204);
    expect(await closedWithin(signedOut)).toBe('io server disconnect');

    await notify(first.user._id, otherDevice);
    await notify(master.user._id, otherUser);
    expect(signedOut.events).toEqual([]);
    expect(otherDevice.socket.connected).toBe(true);
    expect(otherUser.socket.connected).toBe(true);
    expect(await refusedAgain(first.token)).toBe('unauthorized');
  });

  it('blocking an account closes every socket of it at once; other users stay connected', async () => {
    const blocked = await signInAs(server, 'blocked@example.com');
    const secondDevice = await login('blocked@example.com');
    const devices = [await watch(blocked.token), await watch(secondDevice.token)];
    const otherUser = await watch(master.token);

    const res = await call(server, apiCalls.user_update, { token: master.token, body: { _id: blocked.user._id, status: 'BLOCK' } });
    expect(res.status).toBe(200);
    for (const device of devices) expect(await closedWithin(device)).toBe('io server disconnect');

    // Events still raised for the blocked account (a task finishing) reach nobody.
    const task = await server.app.tasks.start({ type: 'upload', ownerId: blocked.user._id, name: 'late.txt' });
    await server.app.tasks.update(task.id, { progress: 100, clientPath: '/' });
    await notify(master.user._id, otherUser);
    // Nothing at all, not even `session_expired`: an ended session is not an expiry to refresh.
    for (const device of devices) expect(device.events).toEqual([]);
    expect(otherUser.socket.connected).toBe(true);
    expect(await refusedAgain(blocked.token)).toBe('unauthorized');
  });

  it('deleting an account closes its sockets', async () => {
    const deleted = await signInAs(server, 'deleted@example.com');
    const socket = await watch(deleted.token);
    const otherUser = await watch(master.token);
    expect((await call(server, apiCalls.user_delete, { token: master.token, body: { accountId: deleted.user._id } })).status).toBe(200);
    expect(await closedWithin(socket)).toBe('io server disconnect');
    expect(otherUser.socket.connected).toBe(true);
  });

  it('changing the password closes the other sessions’ sockets and keeps this one', async () => {
    const here = await signInAs(server, 'password@example.com');
    const elsewhere = await login('password@example.com');
    const kept = await watch(here.token);
    const ended = await watch(elsewhere.token);

    const res = await call(server, apiCalls.password_change, {
      token: here.token,
      body: { _id: here.user._id, password: GOOD_PASSWORD, newPassword: 'Changed!2027' },
    });
    expect(res.status).toBe(200);
    expect(await closedWithin(ended)).toBe('io server disconnect');
    await notify(here.user._id, kept);
    expect(kept.socket.connected).toBe(true);
    expect(ended.events).toEqual([]);
  });

  it('sessions ended from the command line are closed by the periodic check', async () => {
    const user = await signInAs(server, 'cli@example.com');
    const socket = await watch(user.token);
    const otherUser = await watch(master.token);
    const reset = await new AdminCommands(server.app.db).resetPassword('cli@example.com');
    expect(reset.ok).toBe(true);
    // Another process changed the database: nothing told this one yet.
    expect(socket.socket.connected).toBe(true);

    expect(await server.app.realtime.closeEndedSessions()).toBe(1);
    expect(await closedWithin(socket)).toBe('io server disconnect');
    expect(otherUser.socket.connected).toBe(true);
  });
});
