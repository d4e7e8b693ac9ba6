import fs from 'node:fs';
import path from 'node:path';
import { apiCalls, type SnapshotPlanCreate } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createPlan, createRoot, REPO_PASSWORD, repoDir } from './snapshots-helpers.js';

const schedule = (time: string, days = [1, 3, 5]) => ({ days, time, status: 'active' as const });

describeEachDialect('snapshot plans on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    await createRoot(server, token, 'Team');
    await createRoot(server, token, 'Design');
  });
  afterAll(async () => {
    await server?.close();
  });

  const planBody = (body: Partial<SnapshotPlanCreate>): SnapshotPlanCreate => ({
    name: '주간 백업',
    backupType: 'full',
    target: { all: true, roots: [] },
    location: { kind: 'local', path: repoDir() },
    password: REPO_PASSWORD,
    schedules: [],
    ...body,
  });

  it('is for administrators only', async () => {
    const user = await signInAs(server, 'plain@example.com', 'USER');
    for (const [url, refuse] of [
      ['GET /api/snapshot/plan', () => callRefused(server, apiCalls.snapshot_plan_list, { token: user.token })],
      ['GET /api/snapshot/run', () => callRefused(server, apiCalls.snapshot_run_list, { token: user.token })],
      ['GET /api/restore', () => callRefused(server, apiCalls.restore_list, { token: user.token })],
      ['POST /api/snapshot/plan', () => callRefused(server, apiCalls.snapshot_plan_create, { token: user.token, body: planBody({}) })],
    ] as const) {
      const res = await refuse();
      expect({ url, status: res.status, message: res.body.message }).toEqual({ url, status: 403, message: 'no_access_warning' });
    }
  });

  it('refuses bad input with message keys and creates nothing', async () => {
    const cases: [Partial<SnapshotPlanCreate>, string][] = [
      [{ name: '   ' }, 'snapshot_name_required'],
      [{ schedules: Array.from({ length: 6 }, (_, i) => schedule(`0${i}:00`)) }, 'snapshot_schedule_limit'],
      [{ schedules: [schedule('25:00')] }, 'snapshot_schedule_invalid'],
      [{ schedules: [schedule('09:00', [])] }, 'snapshot_schedule_invalid'],
      [{ schedules: [schedule('09:00', [1, 1])] }, 'snapshot_schedule_invalid'],
      [{ password: 'short' }, 'snapshot_password_rule'],
      [{ location: { kind: 'local', path: 'relative/dir' } }, 'snapshot_location_invalid'],
      [{ location: { kind: 'local', path: '/tmp/../etc' } }, 'snapshot_location_invalid'],
      [{ location: { kind: 'local', path: path.join(server.dataDir, 'blobs', 'repo') } }, 'snapshot_location_invalid'],
      [{ location: { kind: 'local', path: path.dirname(server.dataDir) } }, 'snapshot_location_invalid'],
      [{ target: { all: false, roots: ['no-such-root'] } }, 'snapshot_target_invalid'],
      [{ target: { all: false, roots: [] } }, 'snapshot_target_invalid'],
    ];
    for (const [body, message] of cases) {
      const res = await callRefused(server, apiCalls.snapshot_plan_create, { token, body: planBody(body) });
      expect({ body, status: res.status, message: res.body.message }).toEqual({ body, status: 400, message });
    }
    // A directory that holds other files is not taken over.
    const busy = repoDir();
    fs.mkdirSync(busy, { recursive: true });
    fs.writeFileSync(path.join(busy, 'notes.txt'), 'keep me');
    const refused = await callRefused(server, apiCalls.snapshot_plan_create, { token, body: planBody({ location: { kind: 'local', path: busy } }) });
    expect(refused.body.message).toBe('snapshot_location_invalid');
    expect(fs.readdirSync(busy)).toEqual(['notes.txt']);
    expect((await call(server, apiCalls.snapshot_plan_list, { token })).body.items).toEqual([]);
  });

  it('creates a plan with its repository, keeps the password sealed, and never shows it', async () => {
    const location = repoDir();
    const roots = (await call(server, apiCalls.root_list, { token })).body;
    const team = roots.find((r) => r.name === 'Team')!;
    const res = await call(server, apiCalls.snapshot_plan_create, {
      token,
      body: planBody({
        name: '팀 백업',
        target: { all: false, roots: [team._id] },
        location: { kind: 'local', path: location },
        schedules: [schedule('02:30')],
      }),
    });
    expect(res.status).toBe(201);
    expect(res.body).toMatchObject({
      name: '팀 백업',
      backupType: 'full',
      target: { all: false, roots: [{ _id: team._id, name: 'Team' }] },
      location: { kind: 'local', path: location },
      schedules: [{ days: [1, 3, 5], time: '02:30', status: 'active' }],
      lastRun: null,
    });
    expect(JSON.stringify(res.body)).not.toContain(REPO_PASSWORD);
    expect(fs.existsSync(path.join(location, 'config'))).toBe(true);
    const row = await server.app.db.selectFrom('snapshot_plans').selectAll().where('id', '=', res.body._id).executeTakeFirstOrThrow();
    expect(row.password_sealed).not.toContain(REPO_PASSWORD);
    expect(Buffer.from(row.password_sealed).toString('latin1')).not.toContain(Buffer.from(REPO_PASSWORD).toString('base64'));

    // The same location again: only with the repository's password.
    const otherPassword = planBody({ location: { kind: 'local', path: location }, password: 'another-password' });
    expect((await callRefused(server, apiCalls.snapshot_plan_create, { token, body: otherPassword })).body.message).toBe('snapshot_location_invalid');
    const again = await call(server, apiCalls.snapshot_plan_create, {
      token,
      body: planBody({ name: '같은 저장소', location: { kind: 'local', path: location } }),
    });
    expect(again.status).toBe(201);
  });

  it('edits name, type, target and schedules, keeping schedule ids, and refuses a sixth schedule', async () => {
    const plan = await createPlan(server, token, repoDir(), { schedules: [schedule('01:00'), schedule('13:00', [0])] });
    const [first, second] = plan.schedules;
    const edited = await call(server, apiCalls.snapshot_plan_update, {
      token,
      params: { id: plan._id },
      body: {
        name: '바뀐 이름',
        backupType: 'full',
        target: { all: true, roots: [] },
        schedules: [{ _id: second!._id, days: [6], time: '23:59', status: 'paused' }, schedule('07:15', [2])],
      },
    });
    expect(edited.status, edited.text).toBe(200);
    expect(edited.body.name).toBe('바뀐 이름');
    expect(edited.body.backupType).toBe('full');
    expect(edited.body.schedules.map((s) => s._id)[0]).toBe(second!._id);
    expect(edited.body.schedules.map((s) => s._id)).not.toContain(first!._id);
    expect(edited.body.schedules).toMatchObject([
      { days: [6], time: '23:59', status: 'paused' },
      { days: [2], time: '07:15', status: 'active' },
    ]);

    const six = await callRefused(server, apiCalls.snapshot_plan_update, {
      token,
      params: { id: plan._id },
      body: { name: 'x', backupType: 'full', target: { all: true, roots: [] }, schedules: Array.from({ length: 6 }, (_, i) => schedule(`1${i}:00`)) },
    });
    expect(six.status).toBe(400);
    expect(six.body.message).toBe('snapshot_schedule_limit');
    const five = await call(server, apiCalls.snapshot_plan_update, {
      token,
      params: { id: plan._id },
      body: { name: 'x', backupType: 'full', target: { all: true, roots: [] }, schedules: Array.from({ length: 5 }, (_, i) => schedule(`1${i}:00`)) },
    });
    expect(five.status).toBe(200);
    expect(five.body.schedules).toHaveLength(5);

    const paused = await call(server, apiCalls.snapshot_schedule_status, { token, params: { id: five.body.schedules[0]!._id }, body: { status: 'paused' } });
    expect(paused.status).toBe(200);
    expect(paused.body.schedules[0]!.status).toBe('paused');
    expect(paused.body.schedules[1]!.status).toBe('active');
  });

  it('deletes a plan with its schedules; the repository stays', async () => {
    const location = repoDir();
    const plan = await createPlan(server, token, location, { schedules: [schedule('04:00')] });
    expect((await call(server, apiCalls.snapshot_plan_delete, { token, params: { id: plan._id } })).status).toBe(204);
    expect((await callRefused(server, apiCalls.snapshot_plan_get, { token, params: { id: plan._id } })).status).toBe(404);
    const left = await server.app.db.selectFrom('snapshot_schedules').selectAll().where('plan_id', '=', plan._id).execute();
    expect(left).toEqual([]);
    expect(fs.existsSync(path.join(location, 'config'))).toBe(true);
  });
});
