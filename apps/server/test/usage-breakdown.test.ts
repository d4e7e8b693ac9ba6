import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, upload } from './transfer-helpers.js';
import { breakdownOf, uploadAs, versionsOf } from './versions-helpers.js';

describeEachDialect('usage split into live files, versions and trash on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  const mkdir = (name: string, path: string) => call(server, apiCalls.folder_create, { token: master.token, body: { name, path } });

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** What the rows hold for a root: live file bytes, version bytes, and file bytes in the trash (a walk, for checking the counters). */
  const walked = async (rootName: string) => {
    const root = await server.app.fileTree.resolve(`/${rootName}`);
    const rows = await server.app.db.selectFrom('nodes').selectAll().where('root_id', '=', root!.id).execute();
    const byId = new Map(rows.map((r) => [r.id, r]));
    const inTrash = (id: string): boolean => {
      for (let at = byId.get(id); at && at.parent_id !== ''; at = byId.get(at.parent_id)) if (at.trash_key !== '') return true;
      return false;
    };
    const files = rows.filter((r) => r.folder === 0);
    const versions = await server.app.db.selectFrom('file_versions').select('size').where('root_id', '=', root!.id).execute();
    return {
      live: files.filter((r) => !inTrash(r.id)).reduce((s, r) => s + Number(r.size), 0),
      versions: versions.reduce((s, r) => s + Number(r.size), 0),
      trash: files.filter((r) => inTrash(r.id)).reduce((s, r) => s + Number(r.size), 0),
    };
  };

  it('trash, restore and purge move bytes between the parts; the usage call, the volume table and the dashboard show them', async () => {
    await mkdir('자료실', '/');
    await mkdir('보관함', '/자료실');
    expect((await upload(server, master.token, '/자료실/보관함', 'a.bin', bytesOf(1000, 'a'))).status).toBe(200);
    expect((await upload(server, master.token, '/자료실/보관함', 'b.bin', bytesOf(2000, 'b'))).status).toBe(200);
    expect((await upload(server, master.token, '/자료실', 'c.bin', bytesOf(500, 'c'))).status).toBe(200);
    expect((await uploadAs(server, master.token, '/자료실', 'c.bin', bytesOf(700, 'c2'), 'replace')).status).toBe(200);
    expect(await breakdownOf(server, master.token, '/자료실')).toEqual({ usage: 4200, live: 3700, versions: 500, trash: 0 });

    // A file trashed alone, then its folder: each byte counts once in the trash.
    await call(server, apiCalls.file_trash, { token: master.token, body: { paths: ['/자료실/보관함/a.bin'] } });
    expect(await breakdownOf(server, master.token, '/자료실')).toEqual({ usage: 4200, live: 2700, versions: 500, trash: 1000 });
    await call(server, apiCalls.file_trash, { token: master.token, body: { paths: ['/자료실/보관함'] } });
    expect(await breakdownOf(server, master.token, '/자료실')).toEqual({ usage: 4200, live: 700, versions: 500, trash: 3000 });
    expect(await walked('자료실')).toEqual({ live: 700, versions: 500, trash: 3000 });

    const volume = await call(server, apiCalls.storage_volume, { token: master.token });
    expect(volume.body.items.find((r) => r.name === '자료실')!.breakdown).toEqual({ live: 700, versions: 500, trash: 3000 });
    const dashboard = await call(server, apiCalls.dashboard, { token: master.token });
    expect(dashboard.body.storage.roots.find((r) => r.name === '자료실')!.breakdown).toEqual({ live: 700, versions: 500, trash: 3000 });

    const trashed = (await call(server, apiCalls.trash_list, { token: master.token })).body.items;
    const folder = trashed.find((t) => t.name === '보관함')!;
    await call(server, apiCalls.trash_restore, { token: master.token, body: { ids: [folder._id] } });
    // The folder is back; the file trashed on its own stays in the trash.
    expect(await breakdownOf(server, master.token, '/자료실')).toEqual({ usage: 4200, live: 2700, versions: 500, trash: 1000 });
    const single = trashed.find((t) => t.name === 'a.bin')!;
    await call(server, apiCalls.trash_delete, { token: master.token, params: { id: single._id } });
    expect(await breakdownOf(server, master.token, '/자료실')).toEqual({ usage: 3200, live: 2700, versions: 500, trash: 0 });

    // A purged file takes its versions with it.
    await call(server, apiCalls.file_trash, { token: master.token, body: { paths: ['/자료실/c.bin'] } });
    const c = (await call(server, apiCalls.trash_list, { token: master.token })).body.items.find((t) => t.name === 'c.bin')!;
    await call(server, apiCalls.trash_delete, { token: master.token, params: { id: c._id } });
    expect(await breakdownOf(server, master.token, '/자료실')).toEqual({ usage: 2000, live: 2000, versions: 0, trash: 0 });
    expect(await walked('자료실')).toEqual({ live: 2000, versions: 0, trash: 0 });
  });

  it('a file moved to another root takes its versions and their bytes along', async () => {
    await mkdir('출발', '/');
    await mkdir('도착', '/');
    expect((await upload(server, master.token, '/출발', 'm.bin', bytesOf(300, 'm1'))).status).toBe(200);
    expect((await uploadAs(server, master.token, '/출발', 'm.bin', bytesOf(400, 'm2'), 'replace')).status).toBe(200);
    await call(server, apiCalls.file_move, { token: master.token, body: { path: '/출발', name: 'm.bin', newPath: '/도착' } });
    expect(await breakdownOf(server, master.token, '/출발')).toEqual({ usage: 0, live: 0, versions: 0, trash: 0 });
    expect(await breakdownOf(server, master.token, '/도착')).toEqual({ usage: 700, live: 400, versions: 300, trash: 0 });
    expect(await versionsOf(server, master.token, '/도착/m.bin')).toHaveLength(2);
  });

  it('20 replaces of one file at once against a limit: the sum of live and versions never passes it, and the counters match the rows', async () => {
    await mkdir('한도', '/');
    expect((await upload(server, master.token, '/한도', 'f.bin', bytesOf(1000, 'f0'))).status).toBe(200);
    // Room for the file and 7 more contents of 1000 bytes (each replace adds its new content in full).
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/한도', volume: 8000 } });
    const answers = await Promise.all(
      Array.from({ length: 20 }, (_, i) => uploadAs(server, master.token, '/한도', 'f.bin', bytesOf(1000, `f${i + 1}`), 'replace')),
    );
    const statuses = answers.map((r) => r.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(7);
    expect(statuses.filter((s) => s === 413)).toHaveLength(13);
    expect(await breakdownOf(server, master.token, '/한도')).toEqual({ usage: 8000, live: 1000, versions: 7000, trash: 0 });
    expect(await walked('한도')).toEqual({ live: 1000, versions: 7000, trash: 0 });
    expect(await versionsOf(server, master.token, '/한도/f.bin')).toHaveLength(8);
  });
});
