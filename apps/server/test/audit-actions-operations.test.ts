import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lastSeq, recordsOf } from './audit-actions-helpers.js';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createPlan, createRoot, repoDir, restoreItems, runPlan } from './snapshots-helpers.js';
import { bytesOf, upload } from './transfer-helpers.js';

// Background operations and administration in the audit trail: snapshot plans, runs and
// restores, incoming webhooks, permissions on a folder.
describeEachDialect('audit records of operations on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;
  let masterId: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    const master = await setupMaster(server);
    token = master.token;
    masterId = master.user._id;
    await createRoot(server, token, 'Team');
    expect((await upload(server, token, '/Team', 'a.txt', bytesOf(100, 'snap-a'))).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Waits for records written just after a background job reports its end. */
  const recordsSoon = async (from: number, actions: string[], count: number) => {
    await expect.poll(async () => (await recordsOf(server, { afterSeq: from, actions })).length, { timeout: 10_000 }).toBeGreaterThanOrEqual(count);
    return recordsOf(server, { afterSeq: from, actions });
  };

  it('records a snapshot plan change, a run and a restore, each by the account that started it', async () => {
    const from = await lastSeq(server);
    const plan = await createPlan(server, token, repoDir(), { name: '감사 계획' });
    const finished = await runPlan(server, token, plan._id);
    expect(finished.status).toBe('completed');
    const restored = await restoreItems(server, token, { runId: finished._id, items: ['Team/a.txt'], target: { kind: 'folder', path: '/Team' } });
    expect(restored.status).toBe('completed');

    const records = await recordsSoon(from, ['snapshot.plan_change', 'snapshot.run', 'snapshot.restore'], 5);
    expect(records.map((r) => [r.action, r.targetKind, r.targetId, r.actorAccountId, r.params.status ?? r.params.change])).toEqual([
      ['snapshot.plan_change', 'snapshot_plan', plan._id, masterId, 'create'],
      ['snapshot.run', 'snapshot_plan', plan._id, masterId, 'started'],
      ['snapshot.run', 'snapshot_plan', plan._id, masterId, 'completed'],
      ['snapshot.restore', 'snapshot_plan', plan._id, masterId, 'started'],
      ['snapshot.restore', 'snapshot_plan', plan._id, masterId, 'completed'],
    ]);
    expect(records[1]!.params).toMatchObject({ runId: finished._id, trigger: 'manual' });
    expect(records[2]!.params).toMatchObject({ runId: finished._id, files: 1 });
    expect(records[3]!.params).toMatchObject({ runId: finished._id, target: '/Team', items: 'Team/a.txt' });
    expect(records[4]!.params).toMatchObject({ runId: finished._id, files: 1, failed: 0, items: 'Team/a.txt' });
  });

  it('records permission changes on a folder with each entry, and their removal', async () => {
    const member = await signInAs(server, 'perm@example.com');
    const team = await server.app.fileTree.resolve('/Team');
    const from = await lastSeq(server);
    const saved = await call(server, apiCalls.resource_update, {
      token,
      body: { path: '/Team', users: [{ entity: member.user._id, permissions: ['READ', 'DOWNLOAD'] }] },
    });
    expect(saved.status).toBe(200);
    expect((await call(server, apiCalls.resource_delete, { token, params: { id: saved.body._id } })).status).toBe(200);
    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.targetId, r.targetPath])).toEqual([
      ['permission.change', team!.id, '/Team'],
      ['permission.change', team!.id, '/Team'],
    ]);
    expect(records[0]!.params).toEqual({ entries: `user:${member.user._id}=READ,DOWNLOAD`, count: 1 });
    expect(records[1]!.params).toMatchObject({ removed: true });
  });

  it('records a group created, joined and deleted', async () => {
    const member = await signInAs(server, 'grouped@example.com');
    const from = await lastSeq(server);
    const group = await call(server, apiCalls.group_create, { token, body: { name: '보안팀', description: '' } });
    expect(group.status).toBe(200);
    expect((await call(server, apiCalls.group_members_add, { token, params: { id: group.body._id }, body: { userIds: [member.user._id] } })).status).toBe(200);
    expect((await call(server, apiCalls.group_delete, { token, params: { id: group.body._id } })).status).toBeLessThan(300);
    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.targetKind, r.targetId, r.actorAccountId])).toEqual([
      ['group.create', 'group', group.body._id, masterId],
      ['group.members', 'group', group.body._id, masterId],
      ['group.delete', 'group', group.body._id, masterId],
    ]);
    expect(records[1]!.params).toEqual({ added: member.user._id, count: 1 });
  });

  it('records an incoming webhook created and deleted', async () => {
    const from = await lastSeq(server);
    const made = await call(server, apiCalls.webhook_create, {
      token,
      body: { title: '스캐너', token: 'audit-hook', accessToken: 'audit-secret-0123456789', path: '/Team' },
    });
    expect(made.status).toBe(200);
    expect((await call(server, apiCalls.webhook_delete, { token, params: { id: made.body._id } })).status).toBeLessThan(300);
    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.targetKind, r.targetId, r.targetPath, r.actorAccountId])).toEqual([
      ['webhook.create', 'webhook', made.body._id, '/Team', masterId],
      ['webhook.delete', 'webhook', made.body._id, '/Team', masterId],
    ]);
    expect(JSON.stringify(records)).not.toContain('audit-secret');
  });
});
