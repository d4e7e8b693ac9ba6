import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

const WRONG = 'Wrong!pass123';

describeEachDialect('re-authentication before second-factor changes on $dialect', (dialect) => {
  let server: TestServer;

  beforeAll(async () => {
    server = await startServer(dialect);
    await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A fresh account per test, so lockout counts do not leak between tests. */
  let accounts = 0;
  const account = async () => {
    const email = `reauth-${++accounts}@example.com`;
    return { email, ...(await signInAs(server, email)) };
  };

  /** Each guarded call, made by `who` with the given extra body fields. */
  const calls = (who: { email: string; token: string; user: { _id: string } }) => ({
    'turn the second factor off': (extra: object) => server.request('PUT', '/api/auth/factors', { token: who.token, body: { mfa: 'none', ...extra } }),
    'choose another second factor': (extra: object) => server.request('PUT', '/api/auth/factors', { token: who.token, body: { mfa: 'email', ...extra } }),
    'start a new authenticator app': (extra: object) =>
      server.request('POST', '/api/auth/login/otp', { token: who.token, body: { email: who.email, ...extra } }),
    'register a fingerprint': (extra: object) =>
      server.request('PUT', '/api/auth', { token: who.token, body: { _id: who.user._id, credentialId: 'cred', response: { id: 'cred' }, ...extra } }),
  });

  it('refuses every guarded change made with an access token alone (no password)', async () => {
    const who = await account();
    for (const [what, call] of Object.entries(calls(who))) {
      const res = await call({});
      expect([what, res.status, res.body.message]).toEqual([what, 400, 'reauth_password_required']);
      const empty = await call({ currentPassword: '' });
      expect([what, empty.status, empty.body.message]).toEqual([what, 400, 'reauth_password_required']);
    }
    expect((await server.request('GET', '/api/auth/factors', { token: who.token })).body).toMatchObject({ mfa: 'none', otpRegistered: false, fingerprints: 0 });
  });

  it('refuses a wrong current password with the password-change key, and changes nothing', async () => {
    for (const [what] of Object.entries(calls({ email: '', token: '', user: { _id: '' } }))) {
      const who = await account();
      const res = await calls(who)[what as keyof ReturnType<typeof calls>]({ currentPassword: WRONG });
      expect([what, res.status, res.body.message]).toEqual([what, 401, 'not_matched_origin_password']);
      expect((await server.request('GET', '/api/auth/factors', { token: who.token })).body).toMatchObject({
        mfa: 'none',
        otpRegistered: false,
        fingerprints: 0,
      });
    }
  });

  it('makes the change with the right current password', async () => {
    const who = await account();
    const call = calls(who);
    const email = await call['choose another second factor']({ currentPassword: GOOD_PASSWORD });
    expect([email.status, email.body]).toEqual([200, { mfa: 'email', otpRegistered: false, fingerprints: 0 }]);
    const off = await call['turn the second factor off']({ currentPassword: GOOD_PASSWORD });
    expect([off.status, off.body.mfa]).toEqual([200, 'none']);

    const qr = await call['start a new authenticator app']({ currentPassword: GOOD_PASSWORD });
    expect(qr.status).toBe(200);
    expect(qr.body.qrCode).toMatch(/^data:image\/png;base64,/);
    const confirmed = await server.request('POST', '/api/auth/verify/otp', {
      token: who.token,
      body: { email: who.email, otp: await generate({ secret: qr.body.secret }), login: false },
    });
    expect(confirmed.body).toMatchObject({ success: true });

    // Past the password, the fingerprint call reaches the credential check (a real
    // attestation needs an authenticator: the end-to-end test registers one).
    const fingerprint = await call['register a fingerprint']({ currentPassword: GOOD_PASSWORD });
    expect([fingerprint.status, fingerprint.body.message]).toEqual([401, 'login_failure_fingerprint']);
  });

  it('counts wrong current passwords like wrong sign-in passwords: the account is restricted after five', async () => {
    const who = await account();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await calls(who)['turn the second factor off']({ currentPassword: WRONG })).status);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    // The right password is refused now too, here and at sign-in.
    const right = await calls(who)['turn the second factor off']({ currentPassword: GOOD_PASSWORD });
    expect([right.status, right.body.message]).toEqual([423, 'login_attempt_restrict']);
    const signIn = await server.request('POST', '/api/auth/login', { body: { email: who.email, password: GOOD_PASSWORD } });
    expect([signIn.status, signIn.body.message]).toEqual([423, 'login_attempt_restrict']);
  });

  it('a burst of wrong current passwords checks no more than the lockout allows', async () => {
    const who = await account();
    const answers = await Promise.all(Array.from({ length: 20 }, () => calls(who)['turn the second factor off']({ currentPassword: WRONG })));
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.every((a) => a.status === 401 || a.status === 423)).toBe(true);
  });
});
