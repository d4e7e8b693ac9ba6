import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createPlan, createRoot, finishedRun, repoDir } from './snapshots-helpers.js';
import { upload } from './transfer-helpers.js';

const SECRET = 'a-shared-secret-for-both-processes-0123456789';
const pad = (n: number) => String(n).padStart(2, '0');

// Two server processes on one database (as behind a load balancer): each ticks its own
// scheduler; a due schedule must start exactly one run.
describeEachDialect('snapshot schedules with two servers on one $dialect database', (dialect) => {
  let first: TestServer;
  let second: TestServer;
  let token: string;

  beforeAll(async () => {
    first = await startServer(dialect, { BOGWAN_SECRET: SECRET });
    token = (await setupMaster(first)).token;
    // Shared file contents, as processes behind a load balancer have (a shared directory or a bucket).
    const shared = await call(first, apiCalls.storage_setting_update, { token, body: { server: { path: path.join(first.dataDir, 'shared-blobs') } } });
    expect(shared.status, shared.text).toBe(200);
    const database = first.config.database;
    const url = database.dialect === 'postgres' ? database.url : `sqlite:${database.file}`;
    second = await startServer('sqlite', { BOGWAN_SECRET: SECRET, DATABASE_URL: url });
    await createRoot(first, token, 'Team');
    expect((await upload(first, token, '/Team', 'a.txt', Buffer.from('scheduled'))).status).toBe(200);
  });
  afterAll(async () => {
    await second?.close();
    await first?.close();
  });

  it('fires a due schedule once, in the server time zone, and not a paused one', async () => {
    // A time far from now, so the servers' own tickers cannot reach it during the test.
    const due = new Date(Date.now() + 12 * 3_600_000);
    due.setSeconds(20, 0);
    const time = `${pad(due.getHours())}:${pad(due.getMinutes())}`;
    const plan = await createPlan(first, token, repoDir(), {
      schedules: [
        { days: [due.getDay()], time, status: 'active' },
        { days: [due.getDay()], time, status: 'paused' },
        { days: [(due.getDay() + 1) % 7], time, status: 'active' },
      ],
    });

    const started = await Promise.all([first.app.snapshots.scheduler.tick(due), second.app.snapshots.scheduler.tick(due)]);
    expect(started[0] + started[1]).toBe(1);
    // Ticks a moment later (still inside the look-back) start nothing more.
    const later = new Date(due.getTime() + 45_000);
    expect(await Promise.all([first.app.snapshots.scheduler.tick(later), second.app.snapshots.scheduler.tick(later)])).toEqual([0, 0]);

    const runs = (await call(first, apiCalls.snapshot_run_list, { token, query: { planId: plan._id } })).body.items;
    expect(runs).toHaveLength(1);
    expect(runs[0]!.trigger).toBe('schedule');
    const done = await finishedRun(first, token, runs[0]!._id);
    expect(done).toMatchObject({ status: 'completed', files: 1 });
  });

  it('a schedule due while another operation runs is recorded as not started', async () => {
    const due = new Date(Date.now() + 13 * 3_600_000);
    const time = `${pad(due.getHours())}:${pad(due.getMinutes())}`;
    const busy = await createPlan(first, token, repoDir(), { name: '바쁜 계획' });
    const plan = await createPlan(first, token, repoDir(), { name: '예약 계획', schedules: [{ days: [due.getDay()], time, status: 'active' }] });
    const running = await call(first, apiCalls.snapshot_run, { token, params: { id: busy._id } });
    expect(running.status).toBe(202);
    expect(await second.app.snapshots.scheduler.tick(due)).toBe(0);
    const runs = (await call(first, apiCalls.snapshot_run_list, { token, query: { planId: plan._id } })).body.items;
    expect(runs).toMatchObject([{ status: 'failure', trigger: 'schedule', error: 'snapshot_operation_in_progress' }]);
    await finishedRun(first, token, running.body._id);
  });

  it('an operation left behind by a stopped process is taken over after a minute of silence', async () => {
    const plan = await createPlan(first, token, repoDir(), { name: '중단된 계획' });
    const old = new Date(Date.now() - 5 * 60_000).toISOString();
    await first.app.db
      .insertInto('snapshot_runs')
      .values({
        id: 'dead-run',
        plan_id: plan._id,
        status: 'running',
        trigger: 'manual',
        backup_type: 'full',
        task_id: null,
        vault_snapshot_id: null,
        files: 0,
        size: 0,
        bytes_added: 0,
        error: null,
        started_by: null,
        started_at: old,
        finished_at: null,
      })
      .execute();
    await first.app.db
      .insertInto('snapshot_operation')
      .values({ id: 'operation', kind: 'snapshot', ref_id: 'dead-run', holder: 'gone', heartbeat_at: old })
      .execute();

    const started = await call(second, apiCalls.snapshot_run, { token, params: { id: plan._id } });
    expect(started.status, started.text).toBe(202);
    expect((await finishedRun(first, token, started.body._id)).status).toBe('completed');
    expect(await finishedRun(first, token, 'dead-run')).toMatchObject({ status: 'failure', error: 'snapshot_interrupted' });
  });
});
