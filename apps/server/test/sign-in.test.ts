import { apiCalls, type AuthResponse } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { recordsOf } from './audit-actions-helpers.js';

type Session = Awaited<ReturnType<typeof setupMaster>>;

describeEachDialect('sessions, lockout and password change on $dialect', (dialect) => {
  let server: TestServer;
  let master: Session;
  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_LOGIN_IP_MAX_FAILURES: '1000' });
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A sign-in that succeeds; the account has no second factor, so the answer is a session, not a challenge. */
  const login = async (password: string, email = 'master@example.com') => {
    const res = await call(server, apiCalls.login, { body: { email, password } });
    return { ...res, body: res.body as AuthResponse };
  };
  const loginRefused = (password: string, email = 'master@example.com') => callRefused(server, apiCalls.login, { body: { email, password } });
  const refresh = (cookie: string, id = master.user._id) => call(server, apiCalls.refresh, { body: { _id: id }, cookies: { bogwan_refresh: cookie } });
  const refreshRefused = (cookie: string, id = master.user._id) =>
    callRefused(server, apiCalls.refresh, { body: { _id: id }, cookies: { bogwan_refresh: cookie } });

  it('sets the refresh token as an httpOnly, SameSite=Strict cookie scoped to /api/auth', async () => {
    const res = await login(GOOD_PASSWORD);
    const line = res.headers.getSetCookie().find((c) => c.startsWith('bogwan_refresh='))!;
    expect(line).toMatch(/HttpOnly/i);
    expect(line).toMatch(/SameSite=Strict/i);
    expect(line).toMatch(/Path=\/api\/auth/);
    expect(res.text).not.toContain(res.cookies.bogwan_refresh!);
  });

  it('rotates the refresh token and revokes the whole session when a rotated one comes back', async () => {
    const first = await login(GOOD_PASSWORD);
    const r1 = await refresh(first.cookies.bogwan_refresh!);
    expect(r1.status).toBe(200);
    expect(r1.cookies.bogwan_refresh).toBeTruthy();
    expect(r1.cookies.bogwan_refresh).not.toBe(first.cookies.bogwan_refresh);
    expect((await call(server, apiCalls.me, { token: r1.body.token })).status).toBe(200);

    // Past the grace period for racing tabs, the old token is a stolen one.
    await server.app.db
      .updateTable('refresh_tokens')
      .set({ used_at: new Date(Date.now() - 60_000).toISOString() })
      .where('used_at', 'is not', null)
      .execute();
    expect((await refreshRefused(first.cookies.bogwan_refresh!)).status).toBe(401);
    // The thief's replay ended the session: the legitimate successor and its access token die too.
    expect((await refreshRefused(r1.cookies.bogwan_refresh!)).status).toBe(401);
    expect((await callRefused(server, apiCalls.me, { token: r1.body.token })).status).toBe(401);
  });

  it('refuses a refresh that names another user and does not rotate for it', async () => {
    const s = await login(GOOD_PASSWORD);
    const forged = await refreshRefused(s.cookies.bogwan_refresh!, '0190b2a4-0000-7000-8000-000000000000');
    expect(forged.status).toBe(401);
    expect((await refresh(s.cookies.bogwan_refresh!)).status).toBe(200);
    expect((await callRefused(server, apiCalls.refresh, { body: { _id: master.user._id } })).status).toBe(401);
  });

  it('restricts the account at the fifth failure in a row, even for the right password, until it expires', async () => {
    for (let i = 1; i <= 4; i++) {
      const res = await loginRefused('Wrong!pass' + i);
      expect(res.status).toBe(401);
      expect(res.body.message).toBe('login_failure');
    }
    const fifth = await loginRefused('Wrong!pass5');
    expect(fifth.status).toBe(423);
    expect(fifth.body).toEqual({ statusCode: 423, message: 'login_attempt_restrict' });
    expect((await loginRefused(GOOD_PASSWORD)).status).toBe(423);

    await server.app.db
      .updateTable('users')
      .set({ locked_until: new Date(Date.now() - 1000).toISOString() })
      .execute();
    expect((await login(GOOD_PASSWORD)).status).toBe(200);
    // The success cleared the count: four more failures do not restrict.
    for (let i = 1; i <= 4; i++) expect((await loginRefused('Wrong!again' + i)).status).toBe(401);
    expect((await login(GOOD_PASSWORD)).status).toBe(200);
  });

  it('records sign-ins and failures in the activity log', async () => {
    await loginRefused('Wrong!logged1');
    await login(GOOD_PASSWORD);
    const rows = (await recordsOf(server, { actions: ['auth.sign_in', 'auth.sign_in_failed'] })).filter((r) => r.actorAccountId === master.user._id);
    expect(rows.some((r) => r.action === 'auth.sign_in_failed' && r.outcome === 'refused' && r.reason === 'login_failure')).toBe(true);
    expect(rows.some((r) => r.action === 'auth.sign_in' && r.params.method === 'password')).toBe(true);
    expect(rows.every((r) => r.ip === '127.0.0.1')).toBe(true);
  });

  it('changes the password: wrong current refused, other sessions end, this one goes on', async () => {
    const other = await login(GOOD_PASSWORD);
    const mine = await login(GOOD_PASSWORD);
    const change = (password: string, newPassword: string, id = master.user._id) =>
      call(server, apiCalls.password_change, { token: mine.body.token, body: { _id: id, password, newPassword } });
    const changeRefused = (password: string, newPassword: string, id = master.user._id) =>
      callRefused(server, apiCalls.password_change, { token: mine.body.token, body: { _id: id, password, newPassword } });

    expect((await changeRefused('Wrong!current1', 'Another!pass2')).body).toEqual({ statusCode: 401, message: 'not_matched_origin_password' });
    expect((await changeRefused(GOOD_PASSWORD, 'short')).body).toEqual({ statusCode: 400, message: 'rules_password_pattern' });
    expect((await changeRefused(GOOD_PASSWORD, 'Another!pass2', 'someone-else')).status).toBe(403);

    const ok = await change(GOOD_PASSWORD, 'Another!pass2');
    expect(ok.status).toBe(200);
    expect(ok.body.message).toBe('password_change_complete_message');
    expect((await callRefused(server, apiCalls.me, { token: other.body.token })).status).toBe(401);
    expect((await refreshRefused(other.cookies.bogwan_refresh!)).status).toBe(401);
    expect((await call(server, apiCalls.me, { token: ok.body.token })).status).toBe(200);
    expect((await loginRefused(GOOD_PASSWORD)).status).toBe(401);
    expect((await login('Another!pass2')).status).toBe(200);
    await change('Another!pass2', GOOD_PASSWORD);
  });

  it('refuses the tokens of an account once it is blocked', async () => {
    const s = await login(GOOD_PASSWORD);
    await server.app.db.updateTable('users').set({ status: 'BLOCK' }).execute();
    try {
      expect((await callRefused(server, apiCalls.me, { token: s.body.token })).status).toBe(401);
      expect((await refreshRefused(s.cookies.bogwan_refresh!)).status).toBe(401);
      const blocked = await loginRefused(GOOD_PASSWORD);
      expect(blocked.body).toEqual({ statusCode: 403, message: 'login_user_blocked' });
    } finally {
      await server.app.db.updateTable('users').set({ status: 'ACTIVE' }).execute();
    }
  });
  it('housekeeping drops expired refresh tokens and long-revoked sessions, keeps live ones', async () => {
    const { SessionsRepo } = await import('../src/modules/sessions/sessions.repo.js');
    const live = await login(GOOD_PASSWORD);
    const old = new Date(Date.now() - 30 * 86_400_000).toISOString();
    const dead = await login(GOOD_PASSWORD);
    const deadSid = JSON.parse(Buffer.from(dead.body.token.split('.')[1]!, 'base64url').toString()).sid as string;
    await server.app.db.updateTable('sessions').set({ revoked_at: old }).where('id', '=', deadSid).execute();
    await server.app.db.updateTable('refresh_tokens').set({ expires_at: old }).where('session_id', '=', deadSid).execute();
    await new SessionsRepo(server.app.db).purgeExpired(new Date(Date.now() - 7 * 86_400_000).toISOString());
    const left = await server.app.db.selectFrom('sessions').select('id').where('id', '=', deadSid).execute();
    expect(left).toEqual([]);
    expect((await refresh(live.cookies.bogwan_refresh!)).status).toBe(200);
  });
});

describeEachDialect('throttling by address on $dialect', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_LOGIN_IP_MAX_FAILURES: '5' });
    await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('slows one address that fails across many accounts, without locking them', async () => {
    for (let i = 0; i < 5; i++) {
      const res = await callRefused(server, apiCalls.login, { body: { email: `guess${i}@example.com`, password: 'Wrong!pass1' } });
      expect(res.status).toBe(401);
    }
    const sixth = await callRefused(server, apiCalls.login, { body: { email: 'master@example.com', password: GOOD_PASSWORD } });
    expect(sixth.body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
    const account = await server.app.db.selectFrom('users').select(['failed_logins', 'locked_until']).executeTakeFirstOrThrow();
    expect(account).toEqual({ failed_logins: 0, locked_until: null });
  });
});
