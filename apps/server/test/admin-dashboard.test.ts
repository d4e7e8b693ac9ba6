import { apiCalls } from '@bogwan/contracts';
import { sql } from 'kysely';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createPlan, repoDir, runPlan } from './snapshots-helpers.js';
import { bytesOf, fetchBytes, upload } from './transfer-helpers.js';

describeEachDialect('dashboard on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com');
    await server.app.db.updateTable('users').set({ status: 'BLOCK' }).where('email', '=', 'user@example.com').execute();
  });
  afterAll(async () => {
    await server?.close();
  });

  const dashboard = (token: string, tz = 'Asia/Seoul') => call(server, apiCalls.dashboard, { token, query: { tz } });
  const dashboardRefused = (token: string | undefined, tz = 'Asia/Seoul') => callRefused(server, apiCalls.dashboard, { token, query: { tz } });

  it('refuses anyone below administrator', async () => {
    const blockedUser = await signInAs(server, 'plain@example.com');
    expect(await dashboardRefused(blockedUser.token)).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect((await callRefused(server, apiCalls.dashboard)).status).toBe(401);
    expect(await dashboard(admin.token)).toMatchObject({ status: 200 });
    // The account that was signed in before it was blocked has no session any more.
    expect((await dashboardRefused(user.token)).status).toBe(401);
  });

  it('shows storage per backend and root, with trashed roots counted but not listed', async () => {
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Old', path: '/' } });
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/Team', volume: 10_000_000 } });
    const data = bytesOf(5000, 'dash');
    expect((await upload(server, master.token, '/Team', 'report.bin', data)).status).toBe(200);
    expect((await upload(server, master.token, '/Old', 'old.bin', bytesOf(300, 'old'))).status).toBe(200);
    expect((await call(server, apiCalls.file_trash, { token: master.token, body: { paths: ['/Old'] } })).status).toBe(200);

    const res = await dashboard(master.token);
    expect(res.status).toBe(200);
    expect(res.body.storage.roots).toEqual([
      { name: 'Team', path: '/Team', backend: 'server', usage: 5000, volume: 10_000_000, breakdown: { live: 5000, versions: 0, trash: 0 } },
    ]);
    const serverBackend = res.body.storage.backends.find((b) => b.backend === 'server');
    expect(serverBackend).toMatchObject({ used: 5300, limit: 10_000_000, roots: 1 });
    expect(serverBackend!.disk!.total).toBeGreaterThan(0);
    expect(serverBackend!.free).toBeLessThanOrEqual(10_000_000 - 5300);
    expect(res.body.storage.backends.find((b) => b.backend === 'cloud')).toEqual({
      backend: 'cloud',
      used: 0,
      limit: null,
      free: null,
      disk: null,
      roots: 0,
    });
  });

  it('counts accounts by status and role', async () => {
    const res = await dashboard(admin.token);
    // master, admin, user (blocked), plain
    expect(res.body.accounts).toEqual({
      total: 4,
      byStatus: { ACTIVE: 3, BLOCK: 1, PENDING: 0 },
      byRole: { MASTER: 1, ADMIN: 1, USER: 2 },
    });
  });

  it('counts the uploads and downloads of the last 30 days per day of the asked time zone', async () => {
    const download = await fetchBytes(server, admin.token, '/api/file/download?path=/Team/report.bin');
    expect(download.status).toBe(200);
    const today = () => dashboard(master.token).then((r) => r.body.transfers.days.at(-1));
    await expect.poll(async () => (await today())!.downloads, { timeout: 5000 }).toBe(1);

    // An upload recorded 40 days ago is outside the window; one 3 days ago is in it; a rename is
    // no transfer. Past records come before the live ones in the trail (seq below 1).
    const at = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    for (const [seq, when, action] of [
      [-3, at(40), 'file.upload'],
      [-2, at(3), 'file.upload'],
      [-1, at(3), 'file.rename'],
    ] as const) {
      await sql`insert into audit_records (seq, at, actor_kind, action, outcome, params, prev_hash, hash)
                values (${seq}, ${when}, 'system', ${action}, 'allowed', '{}', '', '')`.execute(server.app.db);
    }

    const res = await dashboard(master.token);
    const { days, timeZone } = res.body.transfers;
    expect(timeZone).toBe('Asia/Seoul');
    expect(days).toHaveLength(30);
    const seoulToday = new Intl.DateTimeFormat('en-CA', { timeZone: 'Asia/Seoul' }).format(new Date());
    expect(days.at(-1)).toEqual({ date: seoulToday, uploads: 2, downloads: 1, previews: 0 });
    const totals = days.reduce((sum, d) => sum + d.uploads, 0);
    expect(totals).toBe(3);

    // An unknown zone counts in UTC; a malformed one is refused.
    expect((await dashboard(master.token, 'Mars/Olympus')).body.transfers.timeZone).toBe('UTC');
    expect(await dashboardRefused(master.token, 'bad zone!')).toMatchObject({ status: 400 });
  });

  it('lists running tasks of every user with their owner, and the licence state', async () => {
    const task = await server.app.tasks.start({ type: 'sync', ownerId: admin.user._id, name: 'Team → cloud', size: 0 });
    await server.app.tasks.update(task.id, { status: 'running', progress: 40 });
    const res = await dashboard(master.token);
    expect(res.body.tasks.running).toContainEqual(
      expect.objectContaining({ _id: task.id, type: 'sync', name: 'Team → cloud', status: 'running', progress: 40, owner: '운영자' }),
    );
    expect(res.body.tasks.total).toBeGreaterThanOrEqual(1);
    expect(res.body.snapshot).toBeNull();
    // The blocked account holds no seat.
    expect(res.body.licence).toMatchObject({ trial: true, type: 'TRIAL', seats: 10, seatsUsed: 3 });
    expect(res.body.licence.daysLeft).toBeGreaterThanOrEqual(29);
  });

  it('shows the latest snapshot run once one has run', async () => {
    const plan = await createPlan(server, master.token, repoDir(), { name: '대시보드 백업' });
    const run = await runPlan(server, master.token, plan._id);
    const res = await dashboard(master.token);
    expect(res.body.snapshot).toMatchObject({ name: '대시보드 백업', status: run.status });
    expect(res.body.snapshot?.startedAt).toBeTruthy();
  });
});
