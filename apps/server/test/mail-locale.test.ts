import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';
import { codeFor, readMail, startSmtp } from './smtp.js';

// Each account has a language (Korean unless it chose English); the server's e-mails are
// written in the recipient's language, subject and body, as a real SMTP listener receives them.

describeEachDialect('e-mail in the recipient language on $dialect', (dialect) => {
  let server: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let english: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    smtp = await startSmtp();
    server = await startServer(dialect, { BOGWAN_SMTP_URL: smtp.url, BOGWAN_MAIL_FROM: 'bogwan@example.com' });
    master = await setupMaster(server);
    english = await signInAs(server, 'jane@example.com');
  });
  afterAll(async () => {
    await server?.close();
    await smtp?.close();
  });

  const mailTo = async (email: string, token: string) => {
    await call(server, apiCalls.factors_update, { token, body: { mfa: 'email', currentPassword: GOOD_PASSWORD } });
    const before = smtp.mails.length;
    expect((await call(server, apiCalls.login, { body: { email, password: GOOD_PASSWORD } })).body).toEqual({ mfa: 'email', email });
    const code = await codeFor(smtp.mails, email, before);
    const mail = smtp.mails.slice(before).find((m) => m.to.includes(email))!;
    return { code, ...readMail(mail) };
  };

  it('an account is Korean by default and chooses its own language, never another account’s', async () => {
    expect((await call(server, apiCalls.me, { token: english.token })).body.language).toBe('ko');
    // Raw: another account's id sent along, which the contract's body does not have (the server ignores it).
    const changed = await server.request('PUT', '/api/user/language', { token: english.token, body: { language: 'en', _id: master.user._id } });
    expect(changed.status).toBe(200);
    expect(changed.body).toMatchObject({ _id: english.user._id, language: 'en' });
    expect((await call(server, apiCalls.me, { token: english.token })).body.language).toBe('en');
    expect((await call(server, apiCalls.me, { token: master.token })).body.language).toBe('ko');
    // Raw: a language the contract's types do not allow.
    expect((await server.request('PUT', '/api/user/language', { token: english.token, body: { language: 'fr' } })).body).toEqual({
      statusCode: 400,
      message: 'invalid_request_message',
    });
    expect((await callRefused(server, apiCalls.language_change, { body: { language: 'en' } })).status).toBe(401);
  });

  it('the sign-in code mail: Korean to a ko account, English to an en account, subject and body', async () => {
    const ko = await mailTo('master@example.com', master.token);
    expect(ko.subject).toBe(`[보관] 로그인 인증 코드 ${ko.code}`);
    expect(ko.text).toContain(`보관 로그인 인증 코드: ${ko.code}`);
    expect(ko.text).not.toMatch(/sign-in code/i);

    const en = await mailTo('jane@example.com', english.token);
    expect(en.subject).toBe(`[Bogwan] Your sign-in code ${en.code}`);
    expect(en.text).toContain(`Your Bogwan sign-in code: ${en.code}`);
    expect(en.text).not.toMatch(/[\uAC00-\uD7A3]/);
  });
});
