import fs from 'node:fs';
import { sql } from 'kysely';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, upload } from './transfer-helpers.js';

describeEachDialect('honest dashboard figures on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
    for (const name of ['Team', 'Secret']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
    expect((await upload(server, master.token, '/Team', '보고서.txt', Buffer.from('분기 보고서'))).status).toBe(200);
    expect((await upload(server, master.token, '/Secret', 'plan.bin', bytesOf(2000, 'secret'))).status).toBe(200);
    // The plain account may list /Secret but neither preview nor download from it.
    await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: '/Secret', users: [{ entity: user.user._id, permissions: ['READ'] }] },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  const today = async () => {
    const res = await call(server, apiCalls.dashboard, { token: master.token, query: { tz: 'UTC' } });
    return res.body.transfers.days.at(-1)!;
  };

  it('counts downloads only: previews are their own figure, refusals are neither', async () => {
    const before = await today();
    expect(before.uploads).toBe(2);
    const file = `/Team/${encodeURIComponent('보고서.txt')}`;
    for (let i = 0; i < 3; i++) expect((await fetchBytes(server, master.token, `/api/file/preview?path=${file}`)).status).toBe(200);
    expect((await fetchBytes(server, master.token, `/api/file/download?path=${file}`)).status).toBe(200);
    // A folder comes as a zip: a download too.
    expect((await fetchBytes(server, master.token, '/api/file/download?path=/Team')).status).toBe(200);
    // Refused: the plain account has no access to /Secret.
    expect((await fetchBytes(server, user.token, '/api/file/download?path=/Secret/plan.bin')).status).toBe(403);
    expect((await fetchBytes(server, user.token, '/api/file/preview?path=/Secret/plan.bin')).status).toBe(403);
    await expect.poll(async () => (await today()).previews, { timeout: 5000 }).toBe(before.previews + 3);
    expect(await today()).toMatchObject({ uploads: 2, downloads: before.downloads + 2, previews: before.previews + 3 });
  });

  it('counts the records of the last 30 days only, each on its own day', async () => {
    const at = (days: number) => new Date(Date.now() - days * 86_400_000).toISOString();
    // Records written in the past: their seq comes before the live ones' (below 1), as time goes.
    const rows: [number, string, string][] = [
      [-10, at(40), 'file.download'],
      [-5, at(3), 'file.download'],
      [-4, at(3), 'share.download'],
      [-3, at(3), 'file.view'],
      [-2, at(3), 'file.rename'],
    ];
    for (const [seq, when, action] of rows) {
      await sql`insert into audit_records (seq, at, actor_kind, action, outcome, params, prev_hash, hash)
                values (${seq}, ${when}, 'system', ${action}, 'allowed', '{}', '', '')`.execute(server.app.db);
    }
    // A refused download three days ago counts nowhere.
    await sql`insert into audit_records (seq, at, actor_kind, action, outcome, reason, params, prev_hash, hash)
              values (${-1}, ${at(3)}, 'system', 'file.download', 'refused', 'no_access_warning', '{}', '', '')`.execute(server.app.db);
    const res = await call(server, apiCalls.dashboard, { token: master.token, query: { tz: 'UTC' } });
    const days = res.body.transfers.days;
    const threeDaysAgo = days.find((d) => d.date === at(3).slice(0, 10))!;
    expect(threeDaysAgo).toMatchObject({ uploads: 0, downloads: 2, previews: 1 });
    const all = days.reduce((sum, d) => sum + d.downloads, 0);
    expect(all).toBe(2 + 2); // today's two and the two of three days ago; the one of 40 days ago is outside
  });

  it("shows the disk under the server path as df does, and Bogwan's share apart", async () => {
    const res = await call(server, apiCalls.dashboard, { token: master.token });
    const backend = res.body.storage.backends.find((b) => b.backend === 'server')!;
    const stats = fs.statfsSync(await server.app.blobStores.serverPath());
    const total = stats.blocks * stats.bsize;
    expect(backend.disk!.total).toBe(total);
    expect(backend.disk!.used + backend.disk!.free).toBe(total);
    // Used is the whole file system's, not Bogwan's few bytes: the same as df within what others wrote meanwhile.
    const dfUsed = total - stats.bavail * stats.bsize;
    expect(Math.abs(backend.disk!.used - dfUsed)).toBeLessThan(total * 0.01);
    expect(backend.disk!.used).toBeGreaterThan(backend.used);
    // Bogwan's own bytes: both files, trash included.
    expect(backend.used).toBe(Buffer.byteLength('분기 보고서') + 2000);
  });
});
