import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newLocalUser } from '../src/modules/users/new-user.js';
import { addFile } from './files-helpers.js';
import {
  answerOf,
  call,
  callRefused,
  describeEachDialect,
  GOOD_PASSWORD,
  type HttpTarget,
  setupMaster,
  startServer,
  type TestResponse,
  type TestServer,
} from './harness.js';
import { codeFor, startSmtp } from './smtp.js';
import { recordsOf } from './audit-actions-helpers.js';

/**
 * Every attempt limit holds when the attempts come all at once and are spread over two
 * server processes sharing one database (and one data directory, as two processes on one
 * machine do). Each burst is sent half to each process; each limit is counted exactly.
 */
describeEachDialect('attempt limits under bursts on two processes on $dialect', (dialect) => {
  let one: TestServer;
  let two: TestServer;
  let smtp: Awaited<ReturnType<typeof startSmtp>>;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  /** Alternates the two processes, as a round-robin load balancer would. */
  const either = (i: number) => (i % 2 === 0 ? one : two);
  /** Each test comes from its own client address, so the per-address limits of one do not touch another. */
  const from = (address: string) => ({ 'x-forwarded-for': address });

  beforeAll(async () => {
    smtp = await startSmtp();
    const env = { BOGWAN_TRUST_PROXY: 'true', BOGWAN_SMTP_URL: smtp.url, BOGWAN_MAIL_FROM: 'bogwan@example.com' };
    one = await startServer(dialect, env);
    master = await setupMaster(one);
    const database = one.config.database;
    two = await startServer(dialect, { ...env, BOGWAN_DATA_DIR: one.dataDir, ...(database.dialect === 'postgres' ? { DATABASE_URL: database.url } : {}) });
    for (const name of ['Inbox', 'Other', 'Team']) await call(one, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
  });
  afterAll(async () => {
    await two?.close();
    await one?.close();
    await smtp?.close();
  });

  const db = () => one.app.db;
  const addUser = async (email: string) =>
    db()
      .insertInto('users')
      .values(await newLocalUser({ name: '사용자', email, password: GOOD_PASSWORD, role: 'USER' }))
      .execute();
  const signInFailures = async (where: { email?: string; ip?: string }) => {
    // A wrong password is one `auth.sign_in_failed` record (with `login_failure`), its e-mail in the params.
    const records = (await recordsOf(one, { actions: ['auth.sign_in_failed'] })).filter((r) => r.reason === 'login_failure');
    return records.filter((r) => (!where.email || r.params.email === where.email) && (!where.ip || r.ip === where.ip)).length;
  };
  const count = (answers: TestResponse[], status: number, message: string) => answers.filter((a) => a.status === status && a.body?.message === message).length;

  it('60 wrong passwords at once check five; the right one sent inside the burst is refused', async () => {
    const email = 'burst@example.com';
    await addUser(email);
    const headers = from('10.0.1.1');
    const login = (i: number, password: string) => answerOf(either(i), apiCalls.login, { body: { email, password }, headers });
    let right: Promise<TestResponse> | undefined;
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) =>
        login(i, `Wrong!pass${i}`).then((answer) => {
          // Once one attempt is refused, the owner types the right password while the rest are still in flight.
          if (answer.status === 423) right ??= login(i + 1, GOOD_PASSWORD);
          return answer;
        }),
      ),
    );
    expect(await signInFailures({ email })).toBe(5);
    expect(count(answers, 401, 'login_failure')).toBe(4);
    expect(count(answers, 423, 'login_attempt_restrict')).toBe(56);
    expect(right).toBeDefined();
    expect((await right!).body).toEqual({ statusCode: 423, message: 'login_attempt_restrict' });
    const account = await db().selectFrom('users').select('locked_until').where('email', '=', email).executeTakeFirstOrThrow();
    expect(new Date(account.locked_until!).getTime()).toBeGreaterThan(Date.now());
  });

  it('60 wrong sign-ins from one address across accounts check twenty, then the address waits', async () => {
    const headers = from('10.0.2.1');
    const answers = await Promise.all(
      Array.from({ length: 60 }, (_, i) => answerOf(either(i), apiCalls.login, { body: { email: `guess${i}@example.com`, password: 'Wrong!pass1' }, headers })),
    );
    expect(await signInFailures({ ip: '10.0.2.1' })).toBe(20);
    expect(count(answers, 401, 'login_failure')).toBe(20);
    expect(count(answers, 429, 'too_many_requests_message')).toBe(40);
    const owner = await callRefused(two, apiCalls.login, { body: { email: 'master@example.com', password: GOOD_PASSWORD }, headers });
    expect(owner.body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
  });

  it('100 parallel email codes check five; the right code afterwards is refused', async () => {
    const email = 'codes@example.com';
    await addUser(email);
    await db().updateTable('users').set({ mfa: 'email' }).where('email', '=', email).execute();
    const headers = from('10.0.3.1');
    const before = smtp.mails.length;
    const started = await call(one, apiCalls.login, { body: { email, password: GOOD_PASSWORD }, headers });
    expect(started.body).toEqual({ mfa: 'email', email });
    const challenge = started.cookies.bogwan_challenge!;
    const code = await codeFor(smtp.mails, email, before);
    const verifying = (otp: string) => ({ body: { email, otp, login: true }, cookies: { bogwan_challenge: challenge }, headers });
    const verify = (i: number, otp: string) => answerOf(either(i), apiCalls.verify_otp, verifying(otp));
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => verify(i, wrong(i))));
    const row = await db().selectFrom('login_challenges').select('attempts').where('id', '=', challenge).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expect(count(answers, 401, 'login_failure_otp')).toBe(4);
    expect(count(answers, 423, 'login_attempt_restrict')).toBe(96);
    expect((await callRefused(either(1), apiCalls.verify_otp, verifying(code))).body).toEqual({ statusCode: 423, message: 'login_attempt_restrict' });
  });

  it('an access token alone cannot guess the password: parallel wrong current passwords (change, own deletion) check five', async () => {
    const headers = from('10.0.7.1');
    for (const [email, guess, key] of [
      [
        'changer@example.com',
        (target: HttpTarget, token: string, id: string, password: string) =>
          answerOf(target, apiCalls.password_change, { token, body: { _id: id, password, newPassword: 'Another!pass2' }, headers }),
        'not_matched_origin_password',
      ],
      [
        'leaver@example.com',
        (target: HttpTarget, token: string, id: string, password: string) =>
          answerOf(target, apiCalls.user_delete_own, { token, body: { _id: id, password, reason: 'other' }, headers }),
        'rules_password_not_match',
      ],
    ] as const) {
      await addUser(email);
      const session = await call(one, apiCalls.login, { body: { email, password: GOOD_PASSWORD }, headers });
      if (!('token' in session.body)) throw new Error('a second factor was asked');
      const { token, user } = session.body;
      const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => guess(either(i), token, user._id, `Wrong!guess${i}`)));
      expect(count(answers, 401, key)).toBe(4);
      expect(count(answers, 423, 'login_attempt_restrict')).toBe(16);
      expect((await callRefused(two, apiCalls.login, { body: { email, password: GOOD_PASSWORD }, headers })).status).toBe(423);
    }
  });

  it('40 parallel share-link passwords check ten (the link limit), then the link is closed', async () => {
    await addFile(one, '/Team', 'report.txt', 16, master.user._id);
    const link = await call(one, apiCalls.share_create, { token: master.token, body: { path: '/Team/report.txt', scope: 'anyone', password: 'right one!' } });
    const headers = from('10.0.4.1');
    const unlocking = (password: string) => ({ params: { key: link.body.key }, body: { password }, headers });
    const unlock = (i: number, password: string) => answerOf(either(i), apiCalls.share_public_unlock, unlocking(password));

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => unlock(i, `guess-${i}`)));
    expect(count(answers, 401, 'share_password_wrong')).toBe(10);
    expect(count(answers, 429, 'too_many_requests_message')).toBe(30);
    expect((await callRefused(either(0), apiCalls.share_public_unlock, unlocking('right one!'))).body).toEqual({
      statusCode: 429,
      message: 'too_many_requests_message',
    });
    expect((await callRefused(either(1), apiCalls.share_public_unlock, unlocking('right one!'))).body).toEqual({
      statusCode: 429,
      message: 'too_many_requests_message',
    });
  });

  it('20 parallel admin-mode passwords check five', async () => {
    const headers = from('10.0.5.1');
    const checking = (password: string) => ({ token: master.token, body: { password }, headers });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => answerOf(either(i), apiCalls.admin_mode, checking(`Wrong!admin${i}`))));
    expect(answers.filter((a) => a.status === 200 && a.body.success === false)).toHaveLength(5);
    expect(count(answers, 429, 'too_many_requests_message')).toBe(15);
    expect((await callRefused(either(1), apiCalls.admin_mode, checking(GOOD_PASSWORD))).body).toEqual({
      statusCode: 429,
      message: 'too_many_requests_message',
    });
    const refused = (await recordsOf(one, { actions: ['admin_mode.refused'] })).filter((r) => r.reason === 'rules_password_not_match');
    expect(refused).toHaveLength(5);
  });

  it('incoming webhooks: 60 parallel wrong tokens get ten refusals from an address, 40 right calls get 30 admissions', async () => {
    await call(one, apiCalls.webhook_create, {
      token: master.token,
      body: { title: '스캐너', token: 'burst-hook', accessToken: 'burst-secret-0123456789', path: '/Inbox' },
    });
    const send = async (i: number, accessToken: string, address: string, path?: string) => {
      const form = new FormData();
      if (path !== undefined) form.append('path', path);
      form.append('file', new Blob([Buffer.from('x')]), `n${i}.txt`);
      const res = await answerOf(either(i), apiCalls.webhook_incoming_call, {
        params: { token: 'burst-hook' },
        token: accessToken,
        headers: from(address),
        body: form,
      });
      return { status: res.status, message: (res.body as { message?: string }).message };
    };

    const guesses = await Promise.all(Array.from({ length: 60 }, (_, i) => send(i, `wrong-secret-${i}-0123456789`, '10.0.6.1')));
    expect(guesses.filter((a) => a.status === 401 && a.message === 'webhook_token_invalid')).toHaveLength(10);
    expect(guesses.filter((a) => a.status === 429 && a.message === 'too_many_requests_message')).toHaveLength(50);
    // The right token from that address waits too.
    expect((await send(0, 'burst-secret-0123456789', '10.0.6.1')).status).toBe(429);

    // Into a folder the webhook may not write: each call is admitted, counted and refused cheaply.
    const calls = await Promise.all(Array.from({ length: 40 }, (_, i) => send(i, 'burst-secret-0123456789', '10.0.6.2', '/Other')));
    expect(calls.filter((a) => a.status === 403)).toHaveLength(30);
    expect(calls.filter((a) => a.status === 429 && a.message === 'too_many_requests_message')).toHaveLength(10);
  });
});
