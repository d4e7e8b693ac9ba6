import fs from 'node:fs';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, setupMaster, startServer, type TestServer } from '../harness.js';
import { createPlan, createRoot, repoDir, runPlan } from '../snapshots-helpers.js';
import { upload } from '../transfer-helpers.js';

// A local snapshot location is a path on the disk of whichever process runs the snapshot.
// Processes on several machines must see one shared directory there; one that sees none,
// or another repository (made there by a plan created through it), refuses to run instead
// of failing obscurely or splitting a plan's snapshots between two repositories. What
// another machine would see is played here by moving the directory away.

describeEachDialect('a local snapshot location another process does not share ($dialect)', (dialect) => {
  let server: TestServer;
  let token: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    await createRoot(server, token, 'Team');
    expect((await upload(server, token, '/Team', 'a.txt', Buffer.from('kept'))).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('runs only against the repository the plan was made with', async () => {
    const dir = repoDir();
    const plan = await createPlan(server, token, dir);
    expect(await runPlan(server, token, plan._id)).toMatchObject({ status: 'completed' });

    // No repository at the path, as on a machine where it is not mounted.
    fs.renameSync(dir, `${dir}-elsewhere`);
    expect(await runPlan(server, token, plan._id)).toMatchObject({ status: 'failure', error: 'snapshot_location_not_shared' });

    // Another repository there, with the same password: a plan created through that machine.
    await createPlan(server, token, dir, { name: '다른 서버의 계획' });
    expect(await runPlan(server, token, plan._id)).toMatchObject({ status: 'failure', error: 'snapshot_location_not_shared' });

    // The shared directory back in place: runs go on into the plan's repository.
    fs.rmSync(dir, { recursive: true, force: true });
    fs.renameSync(`${dir}-elsewhere`, dir);
    expect(await runPlan(server, token, plan._id)).toMatchObject({ status: 'completed' });
  });

  it('a plan made before repository ids were recorded gets its id on first use', async () => {
    const plan = await createPlan(server, token, repoDir(), { name: '예전 계획' });
    await server.app.db.updateTable('snapshot_plans').set({ repository_id: null }).where('id', '=', plan._id).execute();
    expect(await runPlan(server, token, plan._id)).toMatchObject({ status: 'completed' });
    const row = await server.app.db.selectFrom('snapshot_plans').select('repository_id').where('id', '=', plan._id).executeTakeFirstOrThrow();
    expect(row.repository_id).toMatch(/^[0-9a-f]{16,}$/);
  });
});
