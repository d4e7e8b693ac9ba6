import { LocalBackend, Repository } from '@bogwan/vault';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { namesIn, signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createFolder, createPlan, createRoot, finishedRestore, finishedRun, REPO_PASSWORD, repoDir, restoreItems, runPlan } from './snapshots-helpers.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

const MiB = 1024 * 1024;

describeEachDialect('snapshot runs and restores on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;
  let location: string;
  let planId: string;
  let firstRun: string;
  const big = bytesOf(3 * MiB + 123, 'big');
  const small = Buffer.from('작은 파일 내용 small file\n');
  const unicode = bytesOf(70_000, 'unicode');

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    await createRoot(server, token, 'Team');
    await createFolder(server, token, '/Team', 'docs');
    await createFolder(server, token, '/Team', 'empty');
    await createRoot(server, token, 'Other');
    const user = await signInAs(server, 'owner@example.com', 'ADMIN');
    expect((await upload(server, user.token, '/Team/docs', 'big.bin', big)).status).toBe(200);
    expect((await upload(server, token, '/Team', 'small.txt', small)).status).toBe(200);
    expect((await upload(server, token, '/Team/docs', '보고서 2026.dat', unicode)).status).toBe(200);
    location = repoDir();
    planId = (await createPlan(server, token, location))._id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const download = async (path: string) => {
    const res = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(path)}`);
    expect(res.status, path).toBe(200);
    return sha256(res.bytes);
  };

  it('takes a snapshot of the live store; a second run at the same time is refused', async () => {
    // Raw: which of the two is refused is up to the race.
    const [a, b] = await Promise.all([
      server.request('POST', `/api/snapshot/plan/${planId}/run`, { token }),
      server.request('POST', `/api/snapshot/plan/${planId}/run`, { token }),
    ]);
    expect([a.status, b.status].sort()).toEqual([202, 409]);
    const refused = a.status === 409 ? a : b;
    expect(refused.body.message).toBe('snapshot_operation_in_progress');
    const started = a.status === 202 ? a : b;
    expect(started.body).toMatchObject({ status: 'running', trigger: 'manual', backupType: 'incremental' });

    const done = await finishedRun(server, token, started.body._id);
    expect(done).toMatchObject({ status: 'completed', files: 3, size: big.length + small.length + unicode.length, error: null });
    expect(done.snapshotId).toMatch(/^[0-9a-f]{64}$/);
    expect(done.bytesAdded).toBeGreaterThan(big.length / 2);
    firstRun = done._id;

    // The task panel followed it to completion.
    const tasks = (await call(server, apiCalls.task_cache, { token })).body;
    const task = Object.values(tasks).find((t) => t.snapshotId === firstRun)!;
    expect(task).toMatchObject({ type: 'snapshot', status: 'completed' });
    const plan = (await call(server, apiCalls.snapshot_plan_get, { token, params: { id: planId } })).body;
    expect(plan.lastRun).toMatchObject({ _id: firstRun, status: 'completed' });
  });

  it('lists the snapshot contents with owners for the restore wizard', async () => {
    const top = await call(server, apiCalls.snapshot_items, { token, params: { id: firstRun } });
    expect(top.status).toBe(200);
    expect(top.body.items.map((i) => i.name)).toEqual(['Other', 'Team']);
    const team = await call(server, apiCalls.snapshot_items, { token, params: { id: firstRun }, query: { path: 'Team' } });
    expect(team.body.items.map((i) => [i.name, i.folder])).toEqual([
      ['docs', true],
      ['empty', true],
      ['small.txt', false],
    ]);
    const docs = await call(server, apiCalls.snapshot_items, { token, params: { id: firstRun }, query: { path: 'Team/docs' } });
    expect(docs.body.items).toEqual(
      expect.arrayContaining([expect.objectContaining({ path: 'Team/docs/big.bin', size: big.length, folder: false, owner: 'owner@example.com' })]),
    );
    expect((await callRefused(server, apiCalls.snapshot_items, { token, params: { id: firstRun }, query: { path: 'Team/nope' } })).status).toBe(404);
    expect((await callRefused(server, apiCalls.snapshot_items, { token, params: { id: firstRun }, query: { path: '../etc' } })).status).toBe(400);
  });

  it('restores a deleted file to its place with the same SHA-256 and owner', async () => {
    const trashed = await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/docs/big.bin'] } });
    expect(trashed.status).toBe(200);
    expect(await namesIn(server, token, '/Team/docs')).not.toContain('big.bin');

    const restored = await restoreItems(server, token, { runId: firstRun, items: ['Team/docs/big.bin'], target: { kind: 'original' } });
    expect(restored).toMatchObject({ status: 'completed', files: 1, failed: 0, size: big.length, error: null });
    expect(await download('/Team/docs/big.bin')).toBe(sha256(big));
    const listing = await call(server, apiCalls.file_list, { token, query: { path: '/Team/docs' } });
    const entry = listing.body.items.find((i) => i.name === 'big.bin')!;
    const owner = await server.app.db.selectFrom('users').select('id').where('email', '=', 'owner@example.com').executeTakeFirstOrThrow();
    expect(entry.owner).toBe(owner.id);
  });

  it('restoring onto files that are already there keeps them instead of making copies', async () => {
    const again = await restoreItems(server, token, { runId: firstRun, items: ['Team'], target: { kind: 'original' } });
    expect(again).toMatchObject({ status: 'completed', files: 3, failed: 0 });
    expect((await namesIn(server, token, '/Team')).sort()).toEqual(['docs', 'empty', 'small.txt']);
    expect((await namesIn(server, token, '/Team/docs')).sort()).toEqual(['big.bin', '보고서 2026.dat']);
  });

  it('over a live file changed since: keep both adds a copy; replace puts the snapshot content back and keeps the live one as a version', async () => {
    const changed = Buffer.from('바뀐 내용 changed since the snapshot\n');
    await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/small.txt'] } });
    expect((await upload(server, token, '/Team', 'small.txt', changed)).status).toBe(200);

    const kept = await restoreItems(server, token, { runId: firstRun, items: ['Team/small.txt'], target: { kind: 'original' } });
    expect(kept).toMatchObject({ status: 'completed', files: 1, failed: 0, onConflict: 'keep-both' });
    expect(await download('/Team/small.txt')).toBe(sha256(changed));
    expect(await download('/Team/small (1).txt')).toBe(sha256(small));

    const replaced = await restoreItems(server, token, { runId: firstRun, items: ['Team/small.txt'], target: { kind: 'original' }, onConflict: 'replace' });
    expect(replaced).toMatchObject({ status: 'completed', files: 1, failed: 0, onConflict: 'replace' });
    expect(await download('/Team/small.txt')).toBe(sha256(small));
    const versions = await call(server, apiCalls.file_versions, { token, query: { path: '/Team/small.txt' } });
    expect(versions.status).toBe(200);
    expect(versions.body.items.map((v) => [v.hash, v.current])).toEqual([
      [sha256(small), true],
      [sha256(changed), false],
    ]);
    // Raw: an onConflict the contract does not know.
    const bad = await server.request('POST', '/api/restore', {
      token,
      body: { runId: firstRun, items: ['Team/small.txt'], target: { kind: 'original' }, onConflict: 'overwrite' },
    });
    expect(bad.status).toBe(400);
    // Leave /Team as the snapshot has it for the runs below.
    await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/small (1).txt'] } });
  });

  it('restores a folder tree into another folder, empty folders included', async () => {
    const done = await restoreItems(server, token, {
      runId: firstRun,
      items: ['Team/docs', 'Team/empty', 'Team/docs/big.bin'],
      target: { kind: 'folder', path: '/Other' },
    });
    expect(done).toMatchObject({ status: 'completed', files: 2, failed: 0 });
    expect((await namesIn(server, token, '/Other')).sort()).toEqual(['docs', 'empty']);
    expect(await download('/Other/docs/보고서 2026.dat')).toBe(sha256(unicode));
    expect(await download('/Other/docs/big.bin')).toBe(sha256(big));
    const missing = await callRefused(server, apiCalls.restore_start, {
      token,
      body: { runId: firstRun, items: ['Team'], target: { kind: 'folder', path: '/Nowhere' } },
    });
    expect(missing.status).toBe(404);
    const unknown = await callRefused(server, apiCalls.restore_start, {
      token,
      body: { runId: firstRun, items: ['Team/ghost.txt'], target: { kind: 'original' } },
    });
    expect(unknown.status).toBe(400);
    expect(unknown.body.message).toBe('invalid_path');
  });

  it('a restored root folder comes back whole after it was deleted', async () => {
    await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team'] } });
    const done = await restoreItems(server, token, { runId: firstRun, items: ['Team'], target: { kind: 'original' } });
    expect(done).toMatchObject({ status: 'completed', files: 3 });
    expect(await download('/Team/small.txt')).toBe(sha256(small));
    expect(await download('/Team/docs/big.bin')).toBe(sha256(big));
  });

  it('an incremental run stores only what is new: the restored copies are deduplicated', async () => {
    const second = await runPlan(server, token, planId);
    // Team's three files and the two copies restored into Other.
    expect(second).toMatchObject({ status: 'completed', files: 5, size: 2 * big.length + 2 * unicode.length + small.length });
    expect(second.bytesAdded).toBeLessThan(64 * 1024);
  });

  it('a restore and a snapshot cannot run at the same time', async () => {
    // Raw: which of the two is refused is up to the race.
    const [restore, snapshot] = await Promise.all([
      server.request('POST', '/api/restore', { token, body: { runId: firstRun, items: ['Team/small.txt'], target: { kind: 'original' } } }),
      server.request('POST', `/api/snapshot/plan/${planId}/run`, { token }),
    ]);
    expect([restore.status, snapshot.status].sort()).toEqual([202, 409]);
    const refused = restore.status === 409 ? restore : snapshot;
    expect(refused.body.message).toBe('snapshot_operation_in_progress');
    if (restore.status === 202) await finishedRestore(server, token, restore.body._id);
    else await finishedRun(server, token, snapshot.body._id);
  });

  it('a run can be canceled through the task panel call', async () => {
    const started = await call(server, apiCalls.snapshot_run, { token, params: { id: planId } });
    expect(started.status).toBe(202);
    const cancel = await call(server, apiCalls.snapshot_cancel, { token, params: { id: started.body._id } });
    expect(cancel.status).toBe(200);
    const done = await finishedRun(server, token, started.body._id);
    expect(done.status).toBe('canceled');
    // The lock is free again.
    expect((await runPlan(server, token, planId)).status).toBe('completed');
  });

  it('with the repository password changed behind its back, runs and restores fail with "cannot be restored"', async () => {
    const backend = new LocalBackend(location);
    const repo = await Repository.open(backend, REPO_PASSWORD);
    const [original] = await repo.listKeys();
    await repo.addKey('someone-elses-password', { N: 1024, r: 8, p: 1 });
    await repo.removeKey(original!.id);

    const failed = await runPlan(server, token, planId);
    expect(failed).toMatchObject({ status: 'failure', error: 'snapshot_cannot_restore' });
    // Raw: the restore is refused at once, or starts and fails; either is right.
    const res = await server.request('POST', '/api/restore', { token, body: { runId: firstRun, items: ['Team/small.txt'], target: { kind: 'original' } } });
    if (res.status === 202) {
      const restore = await finishedRestore(server, token, res.body._id);
      expect(restore).toMatchObject({ status: 'failure', error: 'snapshot_cannot_restore' });
      // Retry is offered for it, and fails the same way while the password is wrong.
      const retry = await call(server, apiCalls.restore_retry, { token, params: { id: res.body._id } });
      expect(retry.status).toBe(202);
      expect((await finishedRestore(server, token, res.body._id)).error).toBe('snapshot_cannot_restore');
    } else {
      expect(res.status).toBe(400);
      expect(res.body.message).toBe('snapshot_cannot_restore');
    }
    // A completed restore cannot be "retried".
    const completed = (await call(server, apiCalls.restore_list, { token })).body.items.find((r) => r.status === 'completed')!;
    const refused = await callRefused(server, apiCalls.restore_retry, { token, params: { id: completed._id } });
    expect(refused.status).toBe(409);
    expect(refused.body.message).toBe('snapshot_not_restorable_state');
  });
});
