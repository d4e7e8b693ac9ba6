import { afterAll, beforeAll, expect, it } from 'vitest';
import { newLocalUser } from '../src/modules/users/new-user.js';
import { addFile } from './files-helpers.js';
import { describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestResponse, type TestServer } from './harness.js';
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
    for (const name of ['Inbox', 'Other', 'Team']) {
      expect((await one.request('POST', '/api/file', { token: master.token, body: { name, path: '/' } })).status).toBe(200);
    }
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
    const login = (i: number, password: string) => either(i).request('POST', '/api/auth/login', { body: { email, password }, headers });
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
      Array.from({ length: 60 }, (_, i) =>
        either(i).request('POST', '/api/auth/login', { body: { email: `guess${i}@example.com`, password: 'Wrong!pass1' }, headers }),
      ),
    );
    expect(await signInFailures({ ip: '10.0.2.1' })).toBe(20);
    expect(count(answers, 401, 'login_failure')).toBe(20);
    expect(count(answers, 429, 'too_many_requests_message')).toBe(40);
    const owner = await two.request('POST', '/api/auth/login', { body: { email: 'master@example.com', password: GOOD_PASSWORD }, headers });
    expect(owner.body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
  });

  it('100 parallel email codes check five; the right code afterwards is refused', async () => {
    const email = 'codes@example.com';
    await addUser(email);
    await db().updateTable('users').set({ mfa: 'email' }).where('email', '=', email).execute();
    const headers = from('10.0.3.1');
    const before = smtp.mails.length;
    const started = await one.request('POST', '/api/auth/login', { body: { email, password: GOOD_PASSWORD }, headers });
    expect(started.body).toEqual({ mfa: 'email', email });
    const challenge = started.cookies.bogwan_challenge!;
    const code = await codeFor(smtp.mails, email, before);
    const verify = (i: number, otp: string) =>
      either(i).request('POST', '/api/auth/verify/otp', { body: { email, otp, login: true }, cookies: { bogwan_challenge: challenge }, headers });
    const wrong = (i: number) => String((Number(code) + 1 + i) % 1_000_000).padStart(6, '0');

    const answers = await Promise.all(Array.from({ length: 100 }, (_, i) => verify(i, wrong(i))));
    const row = await db().selectFrom('login_challenges').select('attempts').where('id', '=', challenge).executeTakeFirstOrThrow();
    expect(row.attempts).toBe(5);
    expect(count(answers, 401, 'login_failure_otp')).toBe(4);
    expect(count(answers, 423, 'login_attempt_restrict')).toBe(96);
    expect((await verify(1, code)).body).toEqual({ statusCode: 423, message: 'login_attempt_restrict' });
  });

  it('an access token alone cannot guess the password: parallel wrong current passwords (change, own deletion) check five', async () => {
    const headers = from('10.0.7.1');
    for (const [email, call, key] of [
      [
        'changer@example.com',
        (id: string, password: string) => ({ method: 'PUT', url: '/api/user/password', body: { _id: id, password, newPassword: 'Another!pass2' } }),
        'not_matched_origin_password',
      ],
      [
        'leaver@example.com',
        (id: string, password: string) => ({ method: 'POST', url: '/api/user/account', body: { _id: id, password, reason: 'other' } }),
        'rules_password_not_match',
      ],
    ] as const) {
      await addUser(email);
      const session = await one.request('POST', '/api/auth/login', { body: { email, password: GOOD_PASSWORD }, headers });
      const { _id: id } = session.body.user as { _id: string };
      const answers = await Promise.all(
        Array.from({ length: 20 }, (_, i) => {
          const { method, url, body } = call(id, `Wrong!guess${i}`);
          return either(i).request(method, url, { token: session.body.token, body, headers });
        }),
      );
      expect(count(answers, 401, key)).toBe(4);
      expect(count(answers, 423, 'login_attempt_restrict')).toBe(16);
      expect((await two.request('POST', '/api/auth/login', { body: { email, password: GOOD_PASSWORD }, headers })).status).toBe(423);
    }
  });

  it('40 parallel share-link passwords check ten (the link limit), then the link is closed', async () => {
    await addFile(one, '/Team', 'report.txt', 16, master.user._id);
    const link = await one.request('POST', '/api/share', { token: master.token, body: { path: '/Team/report.txt', scope: 'anyone', password: 'right one!' } });
    expect(link.status).toBe(200);
    const headers = from('10.0.4.1');
    const unlock = (i: number, password: string) => either(i).request('POST', `/api/share/public/${link.body.key}/unlock`, { body: { password }, headers });

    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => unlock(i, `guess-${i}`)));
    expect(count(answers, 401, 'share_password_wrong')).toBe(10);
    expect(count(answers, 429, 'too_many_requests_message')).toBe(30);
    expect((await unlock(0, 'right one!')).body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
    expect((await unlock(1, 'right one!')).body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
  });

  it('20 parallel admin-mode passwords check five', async () => {
    const headers = from('10.0.5.1');
    const check = (i: number, password: string) => either(i).request('POST', '/api/setting/admin', { token: master.token, body: { password }, headers });
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => check(i, `Wrong!admin${i}`)));
    expect(answers.filter((a) => a.status === 200 && a.body.success === false)).toHaveLength(5);
    expect(count(answers, 429, 'too_many_requests_message')).toBe(15);
    expect((await check(1, GOOD_PASSWORD)).body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
    const refused = (await recordsOf(one, { actions: ['admin_mode.refused'] })).filter((r) => r.reason === 'rules_password_not_match');
    expect(refused).toHaveLength(5);
  });

  it('incoming webhooks: 60 parallel wrong tokens get ten refusals from an address, 40 right calls get 30 admissions', async () => {
    const made = await one.request('POST', '/api/webhooks', {
      token: master.token,
      body: { title: '스캐너', token: 'burst-hook', accessToken: 'burst-secret-0123456789', path: '/Inbox' },
    });
    expect(made.status).toBe(200);
    const call = async (i: number, accessToken: string, address: string, path?: string) => {
      const form = new FormData();
      if (path !== undefined) form.append('path', path);
      form.append('file', new Blob([Buffer.from('x')]), `n${i}.txt`);
      const res = await fetch(`${either(i).url}/api/webhooks/incoming/burst-hook`, {
        method: 'POST',
        headers: { authorization: `Bearer ${accessToken}`, ...from(address) },
        body: form,
      });
      return { status: res.status, message: ((await res.json()) as { message?: string }).message };
    };

    const guesses = await Promise.all(Array.from({ length: 60 }, (_, i) => call(i, `wrong-secret-${i}-0123456789`, '10.0.6.1')));
    expect(guesses.filter((a) => a.status === 401 && a.message === 'webhook_token_invalid')).toHaveLength(10);
    expect(guesses.filter((a) => a.status === 429 && a.message === 'too_many_requests_message')).toHaveLength(50);
    // The right token from that address waits too.
    expect((await call(0, 'burst-secret-0123456789', '10.0.6.1')).status).toBe(429);

    // Into a folder the webhook may not write: each call is admitted, counted and refused cheaply.
    const calls = await Promise.all(Array.from({ length: 40 }, (_, i) => call(i, 'burst-secret-0123456789', '10.0.6.2', '/Other')));
    expect(calls.filter((a) => a.status === 403)).toHaveLength(30);
    expect(calls.filter((a) => a.status === 429 && a.message === 'too_many_requests_message')).toHaveLength(10);
  });
});
