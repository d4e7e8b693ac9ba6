import { type AppPasswordCreate, apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AppPasswordsRepo } from '../src/modules/app-passwords/app-passwords.repo.js';
import { AppPasswordsService } from '../src/modules/app-passwords/app-passwords.service.js';
import { newId } from '../src/ids.js';
import { basic, makeAppPassword } from './app-passwords-helpers.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

const PASSWORD_SHAPE = /^([a-km-np-z2-9]{4}-){7}[a-km-np-z2-9]{4}$/;

describeEachDialect('app passwords on $dialect', (dialect) => {
  let server: TestServer;
  let second: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    // The smallest address limit the configuration allows, so the throttle test stays short.
    const env = { BOGWAN_LOGIN_IP_MAX_FAILURES: '5' };
    server = await startServer(dialect, env);
    master = await setupMaster(server);
    const database = server.config.database;
    // A second server on the same database, for bursts across processes. On SQLite both would
    // share this one Node process, where better-sqlite3 waits for the other's write lock
    // synchronously (blocking the holder too): there the burst runs on one server, whose
    // transactions queue on its connection as they would across processes on SQLite's lock.
    second = await startServer(dialect, {
      ...env,
      BOGWAN_DATA_DIR: server.dataDir,
      ...(database.dialect === 'postgres' ? { DATABASE_URL: database.url } : {}),
    });
  });
  afterAll(async () => {
    await second?.close();
    await server?.close();
  });

  const otherProcess = () => (dialect === 'postgres' ? second : server);
  let accounts = 0;
  const account = async () => {
    const email = `dav-${++accounts}@example.com`;
    return { email, ...(await signInAs(server, email)) };
  };
  const list = (token: string) => call(server, apiCalls.app_passwords, { token });
  const create = (token: string, body: AppPasswordCreate) => call(server, apiCalls.app_password_create, { token, body });
  const createRefused = (token: string, body: AppPasswordCreate) => callRefused(server, apiCalls.app_password_create, { token, body });
  const revoke = (token: string, id: string) => call(server, apiCalls.app_password_revoke, { token, params: { id } });
  const verify = (authorization: string | undefined, ip = '10.9.0.1') => server.app.appPasswords.verifyBasic(authorization, { ip });

  // First: activating an account again needs a free licence seat, and later tests add accounts.
  it('a blocked account is refused at once and taken back when active again; a deleted account stays refused', async () => {
    const who = await account();
    const { password } = await makeAppPassword(server, who.token);
    const setStatus = (status: 'BLOCK' | 'ACTIVE') => call(server, apiCalls.user_update, { token: master.token, body: { _id: who.user._id, status } });
    expect((await setStatus('BLOCK')).status).toBe(200);
    expect(await verify(basic(who.email, password), '10.9.2.1')).toEqual({ refused: 'invalid' });
    expect((await setStatus('ACTIVE')).body).toMatchObject({ status: 'ACTIVE' });
    expect('user' in (await verify(basic(who.email, password), '10.9.2.1'))).toBe(true);
    expect((await call(server, apiCalls.user_delete, { token: master.token, body: { accountId: who.user._id } })).status).toBe(200);
    expect(await verify(basic(who.email, password), '10.9.2.1')).toEqual({ refused: 'invalid' });
    expect(await server.app.db.selectFrom('app_passwords').select('id').where('user_id', '=', who.user._id).execute()).toEqual([]);
  });

  it('makes, lists and revokes app passwords; the password is shown once and only its keyed hash is kept', async () => {
    const who = await account();
    const made = await create(who.token, { name: '  노트북 rclone  ', currentPassword: GOOD_PASSWORD });
    expect(made.status).toBe(201);
    expect(made.body).toEqual({ _id: expect.any(String), name: '노트북 rclone', password: expect.stringMatching(PASSWORD_SHAPE) });
    const { password } = made.body;

    const listed = await list(who.token);
    expect(listed.body).toEqual([{ _id: made.body._id, name: '노트북 rclone', createdAt: expect.any(String), lastUsedAt: null, lastUsedIp: null }]);
    expect(listed.text).not.toContain(password.slice(10));

    const rows = await server.app.db.selectFrom('app_passwords').selectAll().where('user_id', '=', who.user._id).execute();
    const stored = JSON.stringify(rows);
    for (const form of [password, password.replaceAll('-', ''), password.replaceAll('-', '').slice(8)]) expect(stored).not.toContain(form);
    expect(rows[0]!.hash).toMatch(/^[0-9a-f]{64}$/);

    expect((await revoke(who.token, made.body._id)).status).toBe(204);
    expect((await list(who.token)).body).toEqual([]);
    expect((await callRefused(server, apiCalls.app_password_revoke, { token: who.token, params: { id: made.body._id } })).status).toBe(404);
  });

  it('asks for the current password: none is 400, a wrong one 401, and nothing is made', async () => {
    const who = await account();
    // Raw on purpose: a body without the current password, which the contract's type does not allow.
    expect((await server.request('POST', '/api/auth/app-passwords', { token: who.token, body: { name: 'phone' } })).body).toEqual({
      statusCode: 400,
      message: 'reauth_password_required',
    });
    expect((await createRefused(who.token, { name: 'phone', currentPassword: 'Wrong!pass123' })).body).toEqual({
      statusCode: 401,
      message: 'not_matched_origin_password',
    });
    expect((await list(who.token)).body).toEqual([]);
    expect((await callRefused(server, apiCalls.app_passwords)).status).toBe(401);
  });

  it('names are 1 to 64 characters after trimming and unique per account (NFC and NFD alike)', async () => {
    const who = await account();
    for (const name of ['', '   ', 'x'.repeat(65)]) {
      expect((await createRefused(who.token, { name, currentPassword: GOOD_PASSWORD })).body).toEqual({ statusCode: 400, message: 'app_password_name_length' });
    }
    expect((await create(who.token, { name: '한글 PC'.normalize('NFD'), currentPassword: GOOD_PASSWORD })).status).toBe(201);
    expect((await createRefused(who.token, { name: ' 한글 PC', currentPassword: GOOD_PASSWORD })).body).toEqual({
      statusCode: 409,
      message: 'app_password_name_exists',
    });
    // Another account may use the same name.
    const other = await account();
    expect((await create(other.token, { name: '한글 PC', currentPassword: GOOD_PASSWORD })).status).toBe(201);
    expect((await create(who.token, { name: 'x'.repeat(64), currentPassword: GOOD_PASSWORD })).status).toBe(201);
  });

  it("acts on the caller's own account only: a userId in the body is ignored, another account's id is 404", async () => {
    const owner = await account();
    const intruder = await account();
    // Raw on purpose: a field the contract does not have (mass assignment), which its type would refuse.
    const made = await server.request('POST', '/api/auth/app-passwords', {
      token: intruder.token,
      body: { name: 'mine', currentPassword: GOOD_PASSWORD, userId: owner.user._id },
    });
    expect(made.status).toBe(201);
    expect((await list(owner.token)).body).toEqual([]);
    const own = await makeAppPassword(server, owner.token, 'owner laptop');
    expect((await callRefused(server, apiCalls.app_password_revoke, { token: intruder.token, params: { id: own._id } })).body).toEqual({
      statusCode: 404,
      message: 'not_found_message',
    });
    expect((await list(intruder.token)).body.map((p) => p.name)).toEqual(['mine']);
    expect('user' in (await verify(basic(owner.email, own.password)))).toBe(true);
  });

  it('20 creations at once (on two processes with PostgreSQL) never pass the cap of 50', async () => {
    const who = await account();
    const now = new Date().toISOString();
    for (let i = 0; i < 40; i++) {
      await server.app.db
        .insertInto('app_passwords')
        .values({
          id: newId(),
          user_id: who.user._id,
          name: `old ${i}`,
          lookup: 'aaaaaaaa',
          hash: '00',
          created_at: now,
          last_used_at: null,
          last_used_ip: null,
        })
        .execute();
    }
    // The services of both processes, with the password check passed (the burst is about the cap,
    // and the sign-in guard holds at most five checks of one account in flight).
    const serviceOf = (target: TestServer) =>
      new AppPasswordsService({
        repo: new AppPasswordsRepo(target.app.db),
        users: undefined as never,
        audit: { record: async () => undefined } as never,
        reauth: { confirm: async () => undefined } as never,
        signInAddresses: undefined as never,
        serverSecret: 'x'.repeat(32),
      });
    const services = [serviceOf(server), serviceOf(otherProcess())];
    const user = await server.app.db.selectFrom('users').selectAll().where('id', '=', who.user._id).executeTakeFirstOrThrow();
    const answers = await Promise.allSettled(Array.from({ length: 20 }, (_, i) => services[i % 2]!.create(user, `burst ${i}`, GOOD_PASSWORD, '10.0.0.1')));
    expect(answers.filter((a) => a.status === 'fulfilled')).toHaveLength(10);
    const refusals = answers.flatMap((a) => (a.status === 'rejected' ? [(a.reason as { messageKey?: string }).messageKey ?? String(a.reason)] : []));
    expect(refusals).toEqual(Array(10).fill('app_password_limit_reached'));
    expect((await list(who.token)).body).toHaveLength(50);
    expect((await createRefused(who.token, { name: 'one more', currentPassword: GOOD_PASSWORD })).body).toEqual({
      statusCode: 409,
      message: 'app_password_limit_reached',
    });
  });

  it('the same name made four times at once (on two processes with PostgreSQL) is made once', async () => {
    const who = await account();
    const answers = await Promise.all(
      // Raw on purpose: one of the four is made and three are refused, and which one is not known in advance.
      [server, otherProcess(), server, otherProcess()].map((target) =>
        target.request('POST', '/api/auth/app-passwords', { token: who.token, body: { name: 'twin', currentPassword: GOOD_PASSWORD } }),
      ),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([201, 409, 409, 409]);
    expect((await list(who.token)).body).toHaveLength(1);
  });

  it('Basic with the e-mail and an app password is the account; typed with spaces or in capitals too', async () => {
    const who = await account();
    const { _id, password } = await makeAppPassword(server, who.token);
    const verdict = await verify(basic(who.email.toUpperCase(), password));
    expect(verdict).toEqual({ user: expect.objectContaining({ id: who.user._id, email: who.email }), appPasswordId: _id });
    expect('user' in (await verify(basic(who.email, password.replaceAll('-', ' ').toUpperCase())))).toBe(true);
  });

  it('refuses the account password, a revoked app password, and another account with a right app password', async () => {
    const who = await account();
    const other = await account();
    const { _id, password } = await makeAppPassword(server, who.token);
    const ip = '10.9.1.1';
    expect(await verify(basic(who.email, GOOD_PASSWORD), ip)).toEqual({ refused: 'invalid' });
    expect(await verify(basic(other.email, password), ip)).toEqual({ refused: 'invalid' });
    await revoke(who.token, _id);
    expect(await verify(basic(who.email, password), ip)).toEqual({ refused: 'invalid' });
    expect(await verify(basic('nobody@example.com', password), ip)).toEqual({ refused: 'invalid' });
  });

  it('wrong credentials count toward the sign-in address throttle, which then refuses even the right ones and password sign-in', async () => {
    const who = await account();
    const { password } = await makeAppPassword(server, who.token);
    const ip = '10.9.3.1';
    // No credentials at all (a client's first request) count nothing.
    for (let i = 0; i < 8; i++) expect(await verify(undefined, ip)).toEqual({ refused: 'invalid' });
    const wrong = [
      basic(who.email, GOOD_PASSWORD),
      basic(who.email, 'aaaa-bbbb-cccc-dddd-eeee-ffff-gggg-hhhh'),
      basic('nobody@example.com', password),
      basic(who.email, 'x'),
      basic(who.email, ''),
    ];
    for (const header of wrong) expect(await verify(header, ip)).toEqual({ refused: 'invalid' });
    expect(await verify(basic(who.email, 'still-wrong'), ip)).toEqual({ refused: 'throttled' });
    expect(await verify(basic(who.email, password), ip)).toEqual({ refused: 'throttled' });
    // The count is the one password sign-in uses (x-forwarded-for is not trusted here, so sign in by the loopback address).
    expect('user' in (await verify(basic(who.email, password), '10.9.3.2'))).toBe(true);
    const loopback = '127.0.0.1';
    for (let i = 0; i < 5; i++) await verify(basic(who.email, 'wrong'), loopback);
    const signIn = await callRefused(server, apiCalls.login, { body: { email: who.email, password: GOOD_PASSWORD } });
    expect(signIn.body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
    await server.app.db.deleteFrom('attempt_counters').execute();
  });

  it('records the last use (time and address) at most once a minute per password', async () => {
    const who = await account();
    const { password } = await makeAppPassword(server, who.token);
    await Promise.all(Array.from({ length: 10 }, () => verify(basic(who.email, password), '10.9.4.1')));
    const [first] = (await list(who.token)).body;
    expect(first).toMatchObject({ lastUsedAt: expect.any(String), lastUsedIp: '10.9.4.1' });
    await verify(basic(who.email, password), '10.9.4.2');
    expect((await list(who.token)).body[0]).toEqual(first);
    // A minute later the next use is written.
    const earlier = new Date(Date.now() - 61_000).toISOString();
    await server.app.db.updateTable('app_passwords').set({ last_used_at: earlier }).where('id', '=', first!._id).execute();
    await verify(basic(who.email, password), '10.9.4.2');
    const [later] = (await list(who.token)).body;
    expect(later!.lastUsedIp).toBe('10.9.4.2');
    expect(later!.lastUsedAt! > earlier).toBe(true);
  });

  it('over WebDAV: PROPFIND /dav/ takes the app password (207), refuses the account password and a revoked one (401 with a Basic challenge), and answers 429 once the address is throttled', async () => {
    const who = await account();
    const { _id, password } = await makeAppPassword(server, who.token);
    // Every call comes from the loopback address; its earlier failures are cleared first.
    const propfind = (authorization: string) => fetch(`${server.url}/dav/`, { method: 'PROPFIND', headers: { depth: '0', authorization } });
    await server.app.db.deleteFrom('attempt_counters').execute();
    expect((await propfind(basic(who.email, password))).status).toBe(207);
    const refused = await propfind(basic(who.email, GOOD_PASSWORD));
    expect(refused.status).toBe(401);
    expect(refused.headers.get('www-authenticate')).toMatch(/^Basic realm=/);
    await revoke(who.token, _id);
    expect((await propfind(basic(who.email, password))).status).toBe(401);
    for (let i = 0; i < 3; i++) expect((await propfind(basic(who.email, `wrong ${i}`))).status).toBe(401);
    // Five failures are the limit of this server (BOGWAN_LOGIN_IP_MAX_FAILURES=5): the sixth attempt is refused unchecked.
    expect((await propfind(basic(who.email, 'wrong again'))).status).toBe(429);
    await server.app.db.deleteFrom('attempt_counters').execute();
  });

  it('an account that must replace its initial password cannot use app passwords', async () => {
    const who = await account();
    const { password } = await makeAppPassword(server, who.token);
    await server.app.db.updateTable('users').set({ must_change_password: 1 }).where('id', '=', who.user._id).execute();
    expect(await verify(basic(who.email, password), '10.9.5.1')).toEqual({ refused: 'invalid' });
  });
});
