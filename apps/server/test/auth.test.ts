import { apiCalls } from '@bogwan/contracts';
import { SignJWT } from 'jose';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('sign-in and access tokens on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_SECRET: 'x'.repeat(40) });
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A sign-in that must succeed without a second factor: its answer, the session typed. */
  const login = async (email: string, password: string) => {
    const res = await call(server, apiCalls.login, { body: { email, password } });
    if (!('token' in res.body)) throw new Error(`sign-in of ${email} asked for a second factor`);
    return { ...res, body: res.body };
  };
  const loginRefused = (email: string, password: string) => callRefused(server, apiCalls.login, { body: { email, password } });

  it('signs in with email (any case) and password', async () => {
    const res = await login('MASTER@example.com', GOOD_PASSWORD);
    expect(res.status).toBe(200);
    expect(res.body.user.email).toBe('master@example.com');
    expect(res.body.user.lastLogin).toBeTruthy();
    const me = await call(server, apiCalls.me, { token: res.body.token });
    expect(me.status).toBe(200);
  });

  it('gives the same answer for a wrong password and an unknown email', async () => {
    const wrong = await loginRefused('master@example.com', 'Wrong!pass123');
    const unknown = await loginRefused('nobody@example.com', GOOD_PASSWORD);
    expect(wrong.status).toBe(401);
    expect(wrong.body).toEqual({ statusCode: 401, message: 'login_failure' });
    expect(unknown.body).toEqual(wrong.body);
  });

  it('refuses calls without a token, with a garbled one, or with a forged one', async () => {
    expect((await callRefused(server, apiCalls.me)).status).toBe(401);
    expect((await callRefused(server, apiCalls.me, { token: 'garbage' })).status).toBe(401);

    const [header, payload] = master.token.split('.');
    const none = `${Buffer.from(JSON.stringify({ alg: 'none', typ: 'JWT' })).toString('base64url')}.${payload}.`;
    expect((await callRefused(server, apiCalls.me, { token: none })).status).toBe(401);
    expect(header).toBeTruthy();

    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString());
    const otherKey = await new SignJWT(claims).setProtectedHeader({ alg: 'HS256' }).sign(new TextEncoder().encode('y'.repeat(40)));
    const other = await callRefused(server, apiCalls.me, { token: otherKey });
    expect(other.status).toBe(401);
    expect(other.body).toEqual({ statusCode: 401, message: 'unauthorized_message' });
  });

  it('refuses an expired token and one of another type', async () => {
    const key = new TextEncoder().encode('x'.repeat(40));
    const sid = JSON.parse(Buffer.from(master.token.split('.')[1]!, 'base64url').toString()).sid as string;
    expect(sid).toBeTruthy();
    const base = { sid, typ: 'access' };
    const expired = await new SignJWT(base)
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(master.user._id)
      .setIssuer('bogwan')
      .setAudience('bogwan-api')
      .setIssuedAt(Math.floor(Date.now() / 1000) - 7200)
      .setExpirationTime(Math.floor(Date.now() / 1000) - 3600)
      .sign(key);
    expect((await callRefused(server, apiCalls.me, { token: expired })).status).toBe(401);

    const refreshTyped = await new SignJWT({ ...base, typ: 'refresh' })
      .setProtectedHeader({ alg: 'HS256' })
      .setSubject(master.user._id)
      .setIssuer('bogwan')
      .setAudience('bogwan-api')
      .setIssuedAt()
      .setExpirationTime('1h')
      .sign(key);
    expect((await callRefused(server, apiCalls.me, { token: refreshTyped })).status).toBe(401);
  });

  it('ends only the signed-out session: its access token and refresh cookie stop working', async () => {
    const a = await login('master@example.com', GOOD_PASSWORD);
    const b = await login('master@example.com', GOOD_PASSWORD);
    const out = await call(server, apiCalls.logout, {
      body: { _id: master.user._id },
      token: a.body.token,
      cookies: { bogwan_refresh: a.cookies.bogwan_refresh! },
    });
    expect(out.status).toBe(204);
    expect(out.cookies.bogwan_refresh).toBe('');
    expect((await callRefused(server, apiCalls.me, { token: a.body.token })).status).toBe(401);
    const refreshed = await callRefused(server, apiCalls.refresh, {
      body: { _id: master.user._id },
      cookies: { bogwan_refresh: a.cookies.bogwan_refresh! },
    });
    expect(refreshed.status).toBe(401);
    expect((await call(server, apiCalls.me, { token: b.body.token })).status).toBe(200);
  });
});
