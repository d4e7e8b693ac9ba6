import { apiCalls } from '@bogwan/contracts';
import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

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

  type Who = { email: string; token: string; user: { _id: string } };
  /** Each guarded call, made by `who` with the given current password, where it is refused. */
  const calls = (who: Who) => ({
    'turn the second factor off': (currentPassword: string) =>
      callRefused(server, apiCalls.factors_update, { token: who.token, body: { mfa: 'none', currentPassword } }),
    'choose another second factor': (currentPassword: string) =>
      callRefused(server, apiCalls.factors_update, { token: who.token, body: { mfa: 'email', currentPassword } }),
    'start a new authenticator app': (currentPassword: string) =>
      callRefused(server, apiCalls.otp_register, { token: who.token, body: { email: who.email, currentPassword } }),
    'register a fingerprint': (currentPassword: string) =>
      callRefused(server, apiCalls.fingerprint_register, {
        token: who.token,
        body: { _id: who.user._id, credentialId: 'cred', response: { id: 'cred' }, currentPassword },
      }),
  });
  /** The same calls without the current password the contracts require: raw on purpose. */
  const withoutPassword = (who: Who): Record<keyof ReturnType<typeof calls>, () => ReturnType<TestServer['request']>> => ({
    'turn the second factor off': () => server.request('PUT', '/api/auth/factors', { token: who.token, body: { mfa: 'none' } }),
    'choose another second factor': () => server.request('PUT', '/api/auth/factors', { token: who.token, body: { mfa: 'email' } }),
    'start a new authenticator app': () => server.request('POST', '/api/auth/login/otp', { token: who.token, body: { email: who.email } }),
    'register a fingerprint': () =>
      server.request('PUT', '/api/auth', { token: who.token, body: { _id: who.user._id, credentialId: 'cred', response: { id: 'cred' } } }),
  });

  it('refuses every guarded change made with an access token alone (no password)', async () => {
    const who = await account();
    for (const [what, refused] of Object.entries(calls(who))) {
      const res = await withoutPassword(who)[what as keyof ReturnType<typeof calls>]();
      expect([what, res.status, res.body.message]).toEqual([what, 400, 'reauth_password_required']);
      const empty = await refused('');
      expect([what, empty.status, empty.body.message]).toEqual([what, 400, 'reauth_password_required']);
    }
    expect((await call(server, apiCalls.factors, { token: who.token })).body).toMatchObject({ mfa: 'none', otpRegistered: false, fingerprints: 0 });
  });

  it('refuses a wrong current password with the password-change key, and changes nothing', async () => {
    for (const [what] of Object.entries(calls({ email: '', token: '', user: { _id: '' } }))) {
      const who = await account();
      const res = await calls(who)[what as keyof ReturnType<typeof calls>](WRONG);
      expect([what, res.status, res.body.message]).toEqual([what, 401, 'not_matched_origin_password']);
      expect((await call(server, apiCalls.factors, { token: who.token })).body).toMatchObject({
        mfa: 'none',
        otpRegistered: false,
        fingerprints: 0,
      });
    }
  });

  it('makes the change with the right current password', async () => {
    const who = await account();
    const email = await call(server, apiCalls.factors_update, { token: who.token, body: { mfa: 'email', currentPassword: GOOD_PASSWORD } });
    expect([email.status, email.body]).toEqual([200, { mfa: 'email', otpRegistered: false, fingerprints: 0 }]);
    const off = await call(server, apiCalls.factors_update, { token: who.token, body: { mfa: 'none', currentPassword: GOOD_PASSWORD } });
    expect([off.status, off.body.mfa]).toEqual([200, 'none']);

    const qr = await call(server, apiCalls.otp_register, { token: who.token, body: { email: who.email, currentPassword: GOOD_PASSWORD } });
    expect(qr.status).toBe(200);
    expect(qr.body.qrCode).toMatch(/^data:image\/png;base64,/);
    const confirmed = await call(server, apiCalls.verify_otp, {
      token: who.token,
      body: { email: who.email, otp: await generate({ secret: qr.body.secret }), login: false },
    });
    expect(confirmed.body).toMatchObject({ success: true });

    // Past the password, the fingerprint call reaches the credential check (a real
    // attestation needs an authenticator: the end-to-end test registers one).
    const fingerprint = await calls(who)['register a fingerprint'](GOOD_PASSWORD);
    expect([fingerprint.status, fingerprint.body.message]).toEqual([401, 'login_failure_fingerprint']);
  });

  it('counts wrong current passwords like wrong sign-in passwords: the account is restricted after five', async () => {
    const who = await account();
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) statuses.push((await calls(who)['turn the second factor off'](WRONG)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    // The right password is refused now too, here and at sign-in.
    const right = await calls(who)['turn the second factor off'](GOOD_PASSWORD);
    expect([right.status, right.body.message]).toEqual([423, 'login_attempt_restrict']);
    const signIn = await callRefused(server, apiCalls.login, { body: { email: who.email, password: GOOD_PASSWORD } });
    expect([signIn.status, signIn.body.message]).toEqual([423, 'login_attempt_restrict']);
  });

  it('a burst of wrong current passwords checks no more than the lockout allows', async () => {
    const who = await account();
    const answers = await Promise.all(Array.from({ length: 20 }, () => calls(who)['turn the second factor off'](WRONG)));
    const checked = answers.filter((a) => a.status === 401).length;
    expect(checked).toBeLessThanOrEqual(5);
    expect(answers.every((a) => a.status === 401 || a.status === 423)).toBe(true);
  });
});
