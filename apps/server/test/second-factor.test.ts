import fs from 'node:fs';
import path from 'node:path';
import { apiCalls, type MfaMethod } from '@bogwan/contracts';
import { generate } from 'otplib';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { call, type CallOptions, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { codeFor, startSmtp } from './smtp.js';

const EMAIL = 'master@example.com';

describeEachDialect('second factors on $dialect', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer(dialect, { BOGWAN_SMTP_URL: smtp.url, BOGWAN_MAIL_FROM: 'bogwan@example.com' });
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const setMfa = (mfa: MfaMethod) => call(server, apiCalls.factors_update, { token: master.token, body: { mfa, currentPassword: GOOD_PASSWORD } });
  const login = () => call(server, apiCalls.login, { body: { email: EMAIL, password: GOOD_PASSWORD } });
  const loginRefused = () => callRefused(server, apiCalls.login, { body: { email: EMAIL, password: GOOD_PASSWORD } });
  const verifyOptions = (otp: string, challenge: string | undefined): CallOptions<typeof apiCalls.verify_otp> => ({
    body: { email: EMAIL, otp, login: true },
    cookies: challenge ? { bogwan_challenge: challenge } : {},
  });
  const verify = (otp: string, challenge: string | undefined) => call(server, apiCalls.verify_otp, verifyOptions(otp, challenge));
  const verifyRefused = (otp: string, challenge: string | undefined) => callRefused(server, apiCalls.verify_otp, verifyOptions(otp, challenge));
  const resetLock = () => server.app.db.updateTable('users').set({ failed_logins: 0, locked_until: null }).execute();

  it('email code: sent over SMTP, single use, bound to its attempt', async () => {
    expect((await setMfa('email')).body).toMatchObject({ mfa: 'email', otpRegistered: false });
    const before = smtp.mails.length;
    const a = await login();
    expect(a.status).toBe(200);
    expect(a.body).toEqual({ mfa: 'email', email: EMAIL });
    expect('token' in a.body ? a.body.token : undefined).toBeUndefined();
    const codeA = await codeFor(smtp.mails, EMAIL, before);

    const mid = smtp.mails.length;
    const b = await login();
    const codeB = await codeFor(smtp.mails, EMAIL, mid);

    // A code works only for the attempt it was sent for.
    if (codeA !== codeB) expect((await verifyRefused(codeA, b.cookies.bogwan_challenge)).body.message).toBe('login_failure_otp');
    expect((await verifyRefused(codeA, undefined)).status).toBe(401);
    const wrong = codeA === '000000' ? '111111' : '000000';
    expect((await verifyRefused(wrong, a.cookies.bogwan_challenge)).body).toEqual({ statusCode: 401, message: 'login_failure_otp' });

    const ok = await verify(codeA, a.cookies.bogwan_challenge);
    expect(ok.status).toBe(200);
    expect(ok.body).toMatchObject({ success: true, user: { email: EMAIL } });
    expect(ok.cookies.bogwan_refresh).toBeTruthy();
    expect((await call(server, apiCalls.me, { token: ok.body.token })).status).toBe(200);

    // Replay of a used code.
    expect((await verifyRefused(codeA, a.cookies.bogwan_challenge)).body).toEqual({ statusCode: 401, message: 'otp_code_expired' });
    await resetLock();
  });

  it('email code: expires after ten minutes', async () => {
    const before = smtp.mails.length;
    const a = await login();
    const code = await codeFor(smtp.mails, EMAIL, before);
    await server.app.db
      .updateTable('login_challenges')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', a.cookies.bogwan_challenge!)
      .execute();
    expect((await verifyRefused(code, a.cookies.bogwan_challenge)).body).toEqual({ statusCode: 401, message: 'otp_code_expired' });
  });

  it('email code: sending is rate-limited per account', async () => {
    await server.app.db.deleteFrom('login_challenges').execute();
    for (let i = 0; i < 5; i++) expect((await login()).status).toBe(200);
    expect((await loginRefused()).body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
    await server.app.db.deleteFrom('login_challenges').execute();
  });

  it('wrong codes count toward the lockout', async () => {
    await resetLock();
    const a = await login();
    const statuses = [];
    for (let i = 0; i < 5; i++) statuses.push((await verifyRefused(String(100000 + i), a.cookies.bogwan_challenge)).status);
    expect(statuses).toEqual([401, 401, 401, 401, 423]);
    expect((await loginRefused()).status).toBe(423);
    await resetLock();
    await server.app.db.deleteFrom('login_challenges').execute();
  });

  it('authenticator app: registered with a QR code, each code accepted once', async () => {
    expect((await callRefused(server, apiCalls.factors_update, { token: master.token, body: { mfa: 'otp', currentPassword: GOOD_PASSWORD } })).status).toBe(
      400,
    );
    const qr = await call(server, apiCalls.otp_register, { token: master.token, body: { email: EMAIL, currentPassword: GOOD_PASSWORD } });
    expect(qr.status).toBe(200);
    expect(qr.body.qrCode).toMatch(/^data:image\/png;base64,/);
    const secret = qr.body.secret;
    const other = await callRefused(server, apiCalls.otp_register, {
      token: master.token,
      body: { email: 'other@example.com', currentPassword: GOOD_PASSWORD },
    });
    expect(other.status).toBe(403);

    const confirmBad = await call(server, apiCalls.verify_otp, {
      token: master.token,
      body: { email: EMAIL, otp: '000000', login: false },
    });
    expect(confirmBad.body).toMatchObject({ success: false, message: 'login_failure_otp' });
    const epoch = Math.floor(Date.now() / 1000);
    const confirm = await call(server, apiCalls.verify_otp, {
      token: master.token,
      body: { email: EMAIL, otp: await generate({ secret, epoch }), login: false },
    });
    expect(confirm.body).toMatchObject({ success: true, message: 'register_otp_app_complete_message' });
    expect((await setMfa('otp')).body).toMatchObject({ mfa: 'otp', otpRegistered: true });

    const a = await login();
    expect(a.body).toEqual({ mfa: 'otp', email: EMAIL });
    // The registration's code (same 30 s step) is already used: a new step is needed.
    const used = await generate({ secret, epoch });
    expect((await verifyRefused(used, a.cookies.bogwan_challenge)).status).toBe(401);
    const next = await generate({ secret, epoch: epoch + 30 });
    const ok = await verify(next, a.cookies.bogwan_challenge);
    expect(ok.status).toBe(200);
    expect(ok.body.success).toBe(true);

    // The same code on a fresh attempt is a replay.
    const b = await login();
    expect((await verifyRefused(next, b.cookies.bogwan_challenge)).body).toEqual({ statusCode: 401, message: 'login_failure_otp' });
    await resetLock();
    await setMfa('none');
  });

  it('fingerprint: a forged assertion or a foreign registration is refused', async () => {
    const options = await call(server, apiCalls.fingerprint_login_options, { body: { email: EMAIL } });
    expect(options.status).toBe(200);
    expect(options.body.register).toBe(true);
    expect(options.body.options.challenge).toBeTruthy();
    const forged = await callRefused(server, apiCalls.fingerprint_login, {
      body: { email: EMAIL, response: { id: 'x', rawId: 'x', type: 'public-key', response: {} } },
      cookies: { bogwan_webauthn: options.cookies.bogwan_webauthn! },
    });
    expect(forged.body).toEqual({ statusCode: 401, message: 'login_failure_fingerprint' });

    // An unknown email looks like an account without a fingerprint; its password step fails alike.
    const unknown = await call(server, apiCalls.fingerprint_login_options, { body: { email: 'ghost@example.com' } });
    expect(unknown.body.register).toBe(true);
    const ghost = await callRefused(server, apiCalls.fingerprint_login, {
      body: { email: 'ghost@example.com', password: 'Whatever!123', response: { id: 'x' } },
      cookies: { bogwan_webauthn: unknown.cookies.bogwan_webauthn! },
    });
    const wrongPassword = await callRefused(server, apiCalls.fingerprint_login, {
      body: { email: EMAIL, password: 'Whatever!123', response: { id: 'x' } },
      cookies: { bogwan_webauthn: options.cookies.bogwan_webauthn! },
    });
    expect(ghost.body).toEqual({ statusCode: 401, message: 'login_failure' });
    expect(wrongPassword.body).toEqual(ghost.body);

    const gen = await call(server, apiCalls.fingerprint_options, { token: master.token });
    expect(gen.body).toMatchObject({
      rp: { id: '127.0.0.1' },
      timeout: 30000,
      attestation: 'direct',
      authenticatorSelection: { authenticatorAttachment: 'cross-platform' },
      pubKeyCredParams: [{ alg: -7, type: 'public-key' }],
    });
    const foreign = await callRefused(server, apiCalls.fingerprint_register, {
      token: master.token,
      body: { _id: 'someone-else', credentialId: 'x', response: { id: 'x' }, currentPassword: GOOD_PASSWORD },
      cookies: { bogwan_webauthn: gen.cookies.bogwan_webauthn! },
    });
    expect(foreign.status).toBe(403);
    await resetLock();
  });
});

describe('mail without an SMTP server', () => {
  it('writes the code to the outbox in the data directory', async () => {
    const server = await startServer('sqlite');
    try {
      const master = await setupMaster(server);
      await call(server, apiCalls.factors_update, { token: master.token, body: { mfa: 'email', currentPassword: GOOD_PASSWORD } });
      const res = await call(server, apiCalls.login, { body: { email: EMAIL, password: GOOD_PASSWORD } });
      expect(res.body).toEqual({ mfa: 'email', email: EMAIL });
      const outbox = path.join(server.dataDir, 'outbox');
      const files = fs.readdirSync(outbox);
      expect(files).toHaveLength(1);
      const mail = fs.readFileSync(path.join(outbox, files[0]!), 'utf8');
      expect(mail).toMatch(/To: master@example\.com/);
      expect(mail).toMatch(/\b\d{6}\b/);
    } finally {
      await server.close();
    }
  });
});
