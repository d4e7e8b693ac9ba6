import { apiCalls, checkPassword } from '@bogwan/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { AdminCommands, generatePassword } from '../src/cli/admin-commands.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('operator command line on $dialect', (dialect) => {
  let server: TestServer;
  let admin: AdminCommands;
  beforeAll(async () => {
    server = await startServer(dialect);
    await setupMaster(server);
    admin = new AdminCommands(server.app.db);
  });
  afterAll(async () => {
    await server?.close();
  });

  const login = (email: string, password: string) => call(server, apiCalls.login, { body: { email, password } });
  const loginRefused = (email: string, password: string) => callRefused(server, apiCalls.login, { body: { email, password } });
  /** The session of a sign-in that asked for no second factor. */
  const session = async (email: string, password: string) => {
    const { body } = await login(email, password);
    if (!('token' in body)) throw new Error(`sign-in of ${email} asked for a second factor`);
    return body;
  };

  it('unlocks an account restricted after five failures', async () => {
    for (let i = 0; i < 5; i++) await loginRefused('master@example.com', `Wrong!pass${i}`);
    expect((await loginRefused('master@example.com', GOOD_PASSWORD)).status).toBe(423);
    expect((await admin.list()).lines[0]).toMatch(/master@example\.com\t.*\tMASTER\tACTIVE locked until/);
    expect(await admin.unlock('master@example.com')).toMatchObject({ ok: true });
    expect((await login('master@example.com', GOOD_PASSWORD)).status).toBe(200);
  });

  it('resets a forgotten password and ends the old sessions', async () => {
    const before = await session('master@example.com', GOOD_PASSWORD);
    const result = await admin.resetPassword('master@example.com');
    expect(result.ok).toBe(true);
    const password = result.lines.find((l) => l.startsWith('new password: '))!.slice('new password: '.length);
    expect((await callRefused(server, apiCalls.me, { token: before.token })).status).toBe(401);
    expect((await loginRefused('master@example.com', GOOD_PASSWORD)).status).toBe(401);
    expect((await login('master@example.com', password)).status).toBe(200);
    expect((await admin.resetPassword('master@example.com', 'weak')).ok).toBe(false);
    expect((await admin.resetPassword('nobody@example.com')).ok).toBe(false);
    await admin.resetPassword('master@example.com', GOOD_PASSWORD);
  });

  it('creates a MASTER when every administrator is lost, and never a duplicate', async () => {
    await server.app.db.updateTable('users').set({ status: 'BLOCK' }).execute();
    const created = await admin.createMaster('rescue@example.com', '복구 담당', 'Rescue!2026');
    expect(created).toEqual({ ok: true, lines: ['MASTER account rescue@example.com created'] });
    const res = await login('rescue@example.com', 'Rescue!2026');
    expect(res.status).toBe(200);
    expect(res.body).toMatchObject({ user: { role: 'MASTER', roleLevel: 3, status: 'ACTIVE' } });
    expect((await admin.createMaster('rescue@example.com', 'Again')).ok).toBe(false);
    expect((await admin.createMaster('not-an-email', 'Name')).ok).toBe(false);
    expect(await admin.activate('master@example.com')).toMatchObject({ ok: true });
    expect((await login('master@example.com', GOOD_PASSWORD)).status).toBe(200);
  });
});

describe('generated passwords', () => {
  it('always follow the password rule', () => {
    for (let i = 0; i < 500; i++) expect(checkPassword(generatePassword())).toBeNull();
  });
});
