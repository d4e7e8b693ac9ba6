import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createPlan, createRoot, finishedRestore, finishedRun, repoDir, runPlan } from './snapshots-helpers.js';
import { bytesOf, upload } from './transfer-helpers.js';

describeEachDialect('one event notifies once on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let planId: string;
  let runId: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    await createRoot(server, master.token, 'Team');
    for (let i = 0; i < 4; i++) expect((await upload(server, master.token, '/Team', `part-${i}.bin`, bytesOf(2 * 1024 * 1024, `p${i}`))).status).toBe(200);
    planId = (await createPlan(server, master.token, repoDir()))._id;
    const done = await runPlan(server, master.token, planId);
    expect(done.status).toBe('completed');
    runId = done._id;
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Each notification as `<key> <name>`. */
  const notifications = async (): Promise<string[]> => {
    const res = await call(server, apiCalls.notification_list, { token: master.token });
    return res.body.map((n) => `${n.key} ${n.params.name ?? ''}`);
  };
  const about = (messages: string[], word: string) => messages.filter((m) => m.includes(word));

  it('a stopped restore notifies its owner once', async () => {
    const before = about(await notifications(), 'restore');
    const started = await call(server, apiCalls.restore_start, {
      token: master.token,
      body: { runId, items: ['Team'], target: { kind: 'folder', path: '/Team' } },
    });
    expect(started.status, started.text).toBe(202);
    await call(server, apiCalls.restore_cancel, { token: master.token, params: { id: started.body._id } });
    expect((await finishedRestore(server, master.token, started.body._id)).status).toBe('canceled');
    // The runner has reported its own end by now; give a late report time to arrive too.
    await new Promise((r) => setTimeout(r, 300));
    const after = about(await notifications(), 'restore');
    expect(after.length - before.length).toBe(1);
    expect(after[0]).toContain('note_task_restore_canceled');
    // The task stays canceled: the runner's own "canceled" and any late progress change nothing.
    const cache = (await call(server, apiCalls.task_cache, { token: master.token })).body;
    expect(Object.values(cache).find((t) => t.restoreId === started.body._id)?.status).toBe('canceled');
  });

  it('a stopped snapshot run notifies its owner once', async () => {
    const before = about(await notifications(), 'snapshot');
    const started = await call(server, apiCalls.snapshot_run, { token: master.token, params: { id: planId } });
    expect(started.status).toBe(202);
    await call(server, apiCalls.snapshot_cancel, { token: master.token, params: { id: started.body._id } });
    expect((await finishedRun(server, master.token, started.body._id)).status).toBe('canceled');
    await new Promise((r) => setTimeout(r, 300));
    expect(about(await notifications(), 'snapshot').length - before.length).toBe(1);
  });

  it('a task finished from many places at once finishes once: first outcome kept, one notification', async () => {
    const task = await server.app.tasks.start({ type: 'sync', ownerId: master.user._id, name: '동시 종료' });
    const before = about(await notifications(), '동시 종료');
    const outcomes = ['canceled', 'failure', 'completed'] as const;
    const results = await Promise.all(Array.from({ length: 12 }, (_, i) => server.app.tasks.update(task.id, { status: outcomes[i % 3] })));
    const final = results.at(-1)!.status;
    expect(results.every((row) => row?.status === final)).toBe(true);
    // A late progress report leaves the finished task as it is.
    expect((await server.app.tasks.update(task.id, { progress: 40 }))?.status).toBe(final);
    expect(about(await notifications(), '동시 종료').length - before.length).toBe(1);
  });
});
