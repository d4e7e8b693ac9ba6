import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, beforeEach, expect, it } from 'vitest';
import { TRIAL_SEATS } from '../src/modules/licence/licence.service.js';
import { newLocalUser } from '../src/modules/users/new-user.js';
import { signIn } from './files-helpers.js';
import { answerOf, call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestResponse, type TestServer } from './harness.js';

type Status = 'ACTIVE' | 'BLOCK' | 'PENDING';

/**
 * Licence seats are held by ACTIVE accounts, and every path that makes an account ACTIVE
 * (create, bulk register, unblock, approve, any status change) takes one, decided together
 * with the change: a burst of activations with one seat left activates exactly one.
 */
describeEachDialect('licence seats and the last MASTER under parallel changes on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });
  beforeEach(async () => {
    await server.app.db.deleteFrom('users').where('id', '!=', master.user._id).execute();
  });

  const db = () => server.app.db;
  let serial = 0;
  /** An account inserted straight into the database; answers its id. */
  async function addUser(status: Status, role: 'USER' | 'MASTER' = 'USER', email = `user${++serial}@example.com`): Promise<string> {
    const row = await newLocalUser({ name: '사용자', email, password: GOOD_PASSWORD, role });
    await db()
      .insertInto('users')
      .values({ ...row, status, approved: status === 'PENDING' ? 0 : 1 })
      .execute();
    return row.id;
  }
  /** ACTIVE accounts until `used` seats are taken (the MASTER holds one). */
  async function fillSeats(used: number): Promise<void> {
    for (let i = 1; i < used; i++) await addUser('ACTIVE');
  }
  const seatsUsed = async () => (await call(server, apiCalls.license, { token: master.token })).body.seatsUsed;
  const statusBody = (id: string, status: Status) => ({ _id: id, status });
  const createBody = (status?: Status) => ({
    name: '새 사용자',
    email: `new${++serial}@example.com`,
    password: GOOD_PASSWORD,
    ...(status ? { status } : {}),
  });
  const registerBody = (count = 1) => ({ list: Array.from({ length: count }, () => ({ name: '일괄 사용자', email: `bulk${++serial}@example.com` })) });
  const setStatus = (id: string, status: Status) => call(server, apiCalls.user_update, { token: master.token, body: statusBody(id, status) });
  const setStatusRefused = (id: string, status: Status) => callRefused(server, apiCalls.user_update, { token: master.token, body: statusBody(id, status) });
  const create = (status?: Status) => call(server, apiCalls.user_create, { token: master.token, body: createBody(status) });
  const createRefused = () => callRefused(server, apiCalls.user_create, { token: master.token, body: createBody() });
  const register = (count = 1) => call(server, apiCalls.user_register, { token: master.token, body: registerBody(count) });
  const registerRefused = (count = 1) => callRefused(server, apiCalls.user_register, { token: master.token, body: registerBody(count) });
  const noSeat = { status: 403, body: { statusCode: 403, message: 'license_seat_limit_reached' } };
  const statusOf = async (id: string) => (await db().selectFrom('users').select('status').where('id', '=', id).executeTakeFirstOrThrow()).status;

  it('unblocking, approving, creating and bulk registering are refused when every seat is taken', async () => {
    await fillSeats(TRIAL_SEATS);
    const blocked = await addUser('BLOCK');
    const pending = await addUser('PENDING');
    expect(await seatsUsed()).toBe(TRIAL_SEATS);

    expect(await setStatusRefused(blocked, 'ACTIVE')).toMatchObject(noSeat);
    expect(await setStatusRefused(pending, 'ACTIVE')).toMatchObject(noSeat);
    expect(await createRefused()).toMatchObject(noSeat);
    expect(await registerRefused()).toMatchObject(noSeat);
    expect([await statusOf(blocked), await statusOf(pending)]).toEqual(['BLOCK', 'PENDING']);
    expect(await seatsUsed()).toBe(TRIAL_SEATS);

    // An account that is not ACTIVE holds no seat, so it may be created, and blocked or pending changes are free.
    await create('BLOCK');
    await setStatus(pending, 'BLOCK');

    // Blocking someone frees a seat, which the unblocked account then takes.
    const active = await db().selectFrom('users').select('id').where('status', '=', 'ACTIVE').where('id', '!=', master.user._id).executeTakeFirstOrThrow();
    await setStatus(active.id, 'BLOCK');
    expect((await setStatus(blocked, 'ACTIVE')).body.status).toBe('ACTIVE');
    expect(await seatsUsed()).toBe(TRIAL_SEATS);
    expect(await registerRefused()).toMatchObject(noSeat);
  });

  it('a bulk list larger than the seats left registers none of its rows', async () => {
    await fillSeats(TRIAL_SEATS - 2);
    expect(await registerRefused(3)).toMatchObject(noSeat);
    expect(await seatsUsed()).toBe(TRIAL_SEATS - 2);
    expect((await register(2)).body).toEqual({ created: 2 });
    expect(await seatsUsed()).toBe(TRIAL_SEATS);
  });

  it('20 parallel activations by every path with one seat left: exactly one succeeds', async () => {
    await fillSeats(TRIAL_SEATS - 1);
    const blocked = await Promise.all(Array.from({ length: 5 }, () => addUser('BLOCK')));
    const pending = await Promise.all(Array.from({ length: 5 }, () => addUser('PENDING')));
    // Races: each answer may be a success or a refusal.
    const answers: TestResponse[] = await Promise.all([
      ...blocked.map((id) => answerOf(server, apiCalls.user_update, { token: master.token, body: statusBody(id, 'ACTIVE') })),
      ...pending.map((id) => answerOf(server, apiCalls.user_update, { token: master.token, body: statusBody(id, 'ACTIVE') })),
      ...Array.from({ length: 5 }, () => answerOf(server, apiCalls.user_create, { token: master.token, body: createBody() })),
      ...Array.from({ length: 5 }, () => answerOf(server, apiCalls.user_register, { token: master.token, body: registerBody() })),
    ]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 403 && a.body.message === 'license_seat_limit_reached')).toHaveLength(19);
    expect(await seatsUsed()).toBe(TRIAL_SEATS);
  });

  it('20 parallel creations with one seat left: exactly one account is made', async () => {
    await fillSeats(TRIAL_SEATS - 1);
    const answers = await Promise.all(Array.from({ length: 20 }, () => answerOf(server, apiCalls.user_create, { token: master.token, body: createBody() })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(await seatsUsed()).toBe(TRIAL_SEATS);
  });

  // The last ACTIVE MASTER is kept by the same lock: blocking, demoting and deleting MASTERs at once.
  /** A second ACTIVE MASTER, signed in. */
  async function secondMaster(email: string): Promise<{ id: string; token: string }> {
    const row = await newLocalUser({ name: '두번째', email, password: GOOD_PASSWORD, role: 'MASTER' });
    await server.app.db.insertInto('users').values(row).execute();
    return { id: row.id, token: (await signIn(server, email)).token };
  }
  const activeMasters = async () =>
    (await server.app.db.selectFrom('users').select('id').where('role', '=', 'MASTER').where('status', '=', 'ACTIVE').execute()).length;

  it('two MASTERs blocking each other at once: one of them stays ACTIVE', async () => {
    for (let round = 0; round < 5; round++) {
      const second = await secondMaster(`second${round}@example.com`);
      const [a, b] = await Promise.all([
        answerOf(server, apiCalls.user_update, { token: master.token, body: statusBody(second.id, 'BLOCK') }),
        answerOf(server, apiCalls.user_update, { token: second.token, body: statusBody(master.user._id, 'BLOCK') }),
      ]);
      // One wins; the other is refused as the last MASTER, or as a caller already blocked by the winner.
      const loser = [a, b].find((r) => r.status !== 200)!;
      expect([a, b].filter((r) => r.status === 200)).toHaveLength(1);
      expect([`409 last_master_warning`, '401 unauthorized_message']).toContain(`${loser.status} ${loser.body.message}`);
      expect(await activeMasters()).toBe(1);
      // Back to one ACTIVE MASTER (the first) for the next round.
      await server.app.db.deleteFrom('users').where('id', '=', second.id).execute();
      await server.app.db.updateTable('users').set({ status: 'ACTIVE' }).where('id', '=', master.user._id).execute();
      master = {
        ...master,
        token: (await signIn(server, 'master@example.com')).token,
      };
    }
  });

  it('two MASTERs deleting their own accounts at once: one of them stays', async () => {
    const first = await secondMaster('self-a@example.com');
    const second = await secondMaster('self-b@example.com');
    // Only these two are ACTIVE MASTERs.
    await server.app.db.updateTable('users').set({ status: 'BLOCK' }).where('id', '=', master.user._id).execute();
    const answers = await Promise.all(
      [first, second].map((m) => answerOf(server, apiCalls.user_delete_own, { token: m.token, body: { _id: m.id, password: GOOD_PASSWORD, reason: 'other' } })),
    );
    expect(answers.map((a) => a.status).sort()).toEqual([200, 409]);
    expect(await activeMasters()).toBe(1);
    await server.app.db.updateTable('users').set({ status: 'ACTIVE' }).where('id', '=', master.user._id).execute();
  });
});
