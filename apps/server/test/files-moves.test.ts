import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, namesIn, refCount, signInAs, usageOf } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { recordsOf } from './audit-actions-helpers.js';

describeEachDialect('move, copy and rename on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
    for (const [name, backend] of [
      ['Team', 'server'],
      ['Team2', 'server'],
      ['Cloud', 'cloud'],
    ] as const) {
      await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/', backend } });
    }
  });
  afterAll(async () => {
    await server?.close();
  });

  const mkdir = (path: string, name: string) => call(server, apiCalls.folder_create, { token: master.token, body: { name, path } });

  it('moves a file by metadata only, and keeps its id', async () => {
    await mkdir('/Team', 'm1');
    await mkdir('/Team', 'm2');
    const file = await addFile(server, '/Team/m1', 'report.txt', 100, user.user._id);
    const moved = await call(server, apiCalls.file_move, { token: user.token, body: { path: '/Team/m1', name: 'report.txt', newPath: '/Team/m2' } });
    expect(moved).toMatchObject({ status: 200, body: { _id: file.id, path: '/Team/m2/report.txt', size: 100 } });
    expect(await namesIn(server, user.token, '/Team/m1')).toEqual([]);
    expect(await namesIn(server, user.token, '/Team/m2')).toEqual(['report.txt']);
    expect(await refCount(server, 'report.txt')).toBe(1);
    expect(await recordsOf(server, { actions: ['file.move'] })).toContainEqual(
      expect.objectContaining({ targetId: file.id, targetPath: '/Team/m1/report.txt', params: { to: '/Team/m2/report.txt' }, actorAccountId: user.user._id }),
    );
  });

  it('refuses a name clash, or keeps both under a numbered name', async () => {
    await mkdir('/Team', 'c1');
    await mkdir('/Team', 'c2');
    await addFile(server, '/Team/c1', 'same.txt', 1, user.user._id, 'c1');
    await addFile(server, '/Team/c2', 'same.txt', 1, user.user._id, 'c2');
    await addFile(server, '/Team/c2', 'same (1).txt', 1, user.user._id, 'c3');
    const body = { path: '/Team/c1', name: 'same.txt', newPath: '/Team/c2' };
    expect(await callRefused(server, apiCalls.file_move, { token: user.token, body })).toMatchObject({ status: 409, body: { message: 'file_exists_warning' } });
    expect(await callRefused(server, apiCalls.file_copy, { token: user.token, body })).toMatchObject({ status: 409, body: { message: 'file_exists_warning' } });
    const both = await call(server, apiCalls.file_move, { token: user.token, body: { ...body, onConflict: 'keep-both' } });
    expect(both).toMatchObject({ status: 200, body: { name: 'same (2).txt', path: '/Team/c2/same (2).txt' } });
    await mkdir('/Team/c1', 'dir');
    await mkdir('/Team/c2', 'dir');
    const dir = await call(server, apiCalls.file_copy, {
      token: user.token,
      body: { path: '/Team/c1', name: 'dir', newPath: '/Team/c2', onConflict: 'keep-both' },
    });
    expect(dir.body.name).toBe('dir (1)');
    expect(await namesIn(server, user.token, '/Team/c2')).toEqual(['dir', 'dir (1)', 'same (1).txt', 'same (2).txt', 'same.txt']);
    // A copy into the same folder keeps both too.
    const twin = await call(server, apiCalls.file_copy, {
      token: user.token,
      body: { path: '/Team/c2', name: 'same.txt', newPath: '/Team/c2', onConflict: 'keep-both' },
    });
    expect(twin.body.name).toBe('same (3).txt');
  });

  it('refuses to move or copy a folder into itself or below it', async () => {
    await mkdir('/Team', 'self');
    await mkdir('/Team/self', 'child');
    for (const contract of [apiCalls.file_move, apiCalls.file_copy]) {
      for (const newPath of ['/Team/self', '/Team/self/child']) {
        expect(await callRefused(server, contract, { token: user.token, body: { path: '/Team', name: 'self', newPath } })).toMatchObject({
          status: 400,
          body: { message: 'move_into_itself_warning' },
        });
      }
    }
    // A sibling whose name starts the same is not inside.
    await mkdir('/Team', 'self2');
    expect(await call(server, apiCalls.file_move, { token: user.token, body: { path: '/Team', name: 'self', newPath: '/Team/self2' } })).toMatchObject({
      status: 200,
    });
    expect(await namesIn(server, user.token, '/Team/self2')).toEqual(['self']);
  });

  it('copies a file as one more reference to the same blob, counted in the target root', async () => {
    await mkdir('/Team', 'src');
    await addFile(server, '/Team/src', 'blob.bin', 1000, user.user._id);
    const before = { team: await usageOf(server, user.token, '/Team'), team2: await usageOf(server, user.token, '/Team2') };
    const copy = await call(server, apiCalls.file_copy, { token: user.token, body: { path: '/Team/src', name: 'blob.bin', newPath: '/Team2' } });
    expect(copy).toMatchObject({ status: 200, body: { path: '/Team2/blob.bin', size: 1000, owner: user.user._id } });
    expect(await refCount(server, 'blob.bin')).toBe(2);
    expect(await usageOf(server, user.token, '/Team')).toBe(before.team);
    expect(await usageOf(server, user.token, '/Team2')).toBe(before.team2 + 1000);
  });

  it('copies a folder with its live subtree, leaving trashed items out', async () => {
    await mkdir('/Team', 'tree');
    await mkdir('/Team/tree', 'sub');
    await addFile(server, '/Team/tree', 'a.txt', 10, user.user._id, 'tree-a');
    await addFile(server, '/Team/tree/sub', 'b.txt', 20, user.user._id, 'tree-b');
    await addFile(server, '/Team/tree/sub', 'gone.txt', 40, user.user._id, 'tree-gone');
    await call(server, apiCalls.file_trash, { token: user.token, body: { paths: ['/Team/tree/sub/gone.txt'] } });
    const before = await usageOf(server, user.token, '/Team2');
    const copy = await call(server, apiCalls.file_copy, { token: user.token, body: { path: '/Team', name: 'tree', newPath: '/Team2' } });
    expect(copy).toMatchObject({ status: 200, body: { path: '/Team2/tree', folder: true } });
    expect(await namesIn(server, user.token, '/Team2/tree')).toEqual(['sub', 'a.txt']);
    expect(await namesIn(server, user.token, '/Team2/tree/sub')).toEqual(['b.txt']);
    expect(await usageOf(server, user.token, '/Team2')).toBe(before + 30);
    expect(await refCount(server, 'tree-b')).toBe(2);
    expect(await refCount(server, 'tree-gone')).toBe(1);
    // The copy is independent: renaming inside it leaves the original alone.
    await call(server, apiCalls.file_rename, { token: user.token, body: { path: '/Team2/tree/sub', name: 'b.txt', newName: 'c.txt' } });
    expect(await namesIn(server, user.token, '/Team/tree/sub')).toEqual(['b.txt']);
  });

  it('moves usage along when a folder moves to another root of the same backend', async () => {
    await mkdir('/Team', 'mover');
    await addFile(server, '/Team/mover', 'x.bin', 500, user.user._id, 'mover-x');
    await addFile(server, '/Team/mover', 'trashed.bin', 50, user.user._id, 'mover-t');
    await call(server, apiCalls.file_trash, { token: user.token, body: { paths: ['/Team/mover/trashed.bin'] } });
    const before = { team: await usageOf(server, user.token, '/Team'), team2: await usageOf(server, user.token, '/Team2') };
    expect(await call(server, apiCalls.file_move, { token: user.token, body: { path: '/Team', name: 'mover', newPath: '/Team2' } })).toMatchObject({
      status: 200,
    });
    expect(await usageOf(server, user.token, '/Team')).toBe(before.team - 550);
    expect(await usageOf(server, user.token, '/Team2')).toBe(before.team2 + 550);
    const moved = await server.app.fileTree.resolve('/Team2/mover/x.bin');
    expect((await server.app.fileTree.rootOf(moved!)).name).toBe('Team2');
  });

  it('refuses moving or copying to a root on another backend', async () => {
    await mkdir('/Team', 'cross');
    await addFile(server, '/Team/cross', 'f.txt', 5, user.user._id, 'cross');
    for (const contract of [apiCalls.file_move, apiCalls.file_copy]) {
      expect(await callRefused(server, contract, { token: user.token, body: { path: '/Team/cross', name: 'f.txt', newPath: '/Cloud' } })).toMatchObject({
        status: 409,
        body: { message: 'backend_mismatch_warning' },
      });
    }
    expect(await namesIn(server, user.token, '/Cloud')).toEqual([]);
  });

  it('keeps root folders at the top', async () => {
    expect(await callRefused(server, apiCalls.file_move, { token: master.token, body: { path: '/', name: 'Team2', newPath: '/Team' } })).toMatchObject({
      status: 400,
    });
    expect(await callRefused(server, apiCalls.file_move, { token: master.token, body: { path: '/Team', name: 'm1', newPath: '/' } })).toMatchObject({
      status: 400,
    });
    expect(await callRefused(server, apiCalls.file_rename, { token: user.token, body: { path: '/', name: 'Team2', newName: 'Renamed' } })).toMatchObject({
      status: 403,
      body: { message: 'no_access_warning' },
    });
  });

  it('renames files by the file-name rule and folders by the folder rule', async () => {
    await mkdir('/Team', 'ren');
    await addFile(server, '/Team/ren', 'old.txt', 1, user.user._id, 'ren');
    await addFile(server, '/Team/ren', 'taken.txt', 1, user.user._id, 'ren2');
    await mkdir('/Team/ren', 'dir');
    const ok = await call(server, apiCalls.file_rename, { token: user.token, body: { path: '/Team/ren', name: 'old.txt', newName: '새 파일; v2.txt' } });
    expect(ok).toMatchObject({ status: 200, body: { name: '새 파일; v2.txt', path: '/Team/ren/새 파일; v2.txt', extension: 'txt' } });
    for (const newName of ['a/b', 'nul\u0000', '..', 'back\\slash', 'bell\u0007']) {
      expect(await callRefused(server, apiCalls.file_rename, { token: user.token, body: { path: '/Team/ren', name: 'taken.txt', newName } })).toMatchObject({
        status: 400,
        body: { message: 'invalid_path' },
      });
    }
    expect(
      await callRefused(server, apiCalls.file_rename, { token: user.token, body: { path: '/Team/ren', name: 'taken.txt', newName: '새 파일; v2.txt' } }),
    ).toMatchObject({
      status: 409,
      body: { message: 'file_exists_warning' },
    });
    expect(await callRefused(server, apiCalls.file_rename, { token: user.token, body: { path: '/Team/ren', name: 'dir', newName: 'dir.v2' } })).toMatchObject({
      status: 400,
      body: { message: 'rules_folder' },
    });
    expect(await call(server, apiCalls.file_rename, { token: user.token, body: { path: '/Team/ren', name: 'dir', newName: '폴더 2' } })).toMatchObject({
      status: 200,
    });
    expect(await namesIn(server, user.token, '/Team/ren')).toEqual(['폴더 2', 'taken.txt', '새 파일; v2.txt']);
    expect(await callRefused(server, apiCalls.file_rename, { token: user.token, body: { path: '/Team/ren', name: 'nothing', newName: 'x' } })).toMatchObject({
      status: 404,
      body: { message: 'folder_not_found' },
    });
  });

  it('lets administrators set a volume limit; a copy that would pass it changes nothing', async () => {
    await mkdir('/', 'Small');
    await mkdir('/Team', 'big');
    await addFile(server, '/Team/big', 'big.bin', 600, user.user._id, 'big');
    expect(await callRefused(server, apiCalls.root_volume, { token: user.token, body: { path: '/Small', volume: 1000 } })).toMatchObject({ status: 403 });
    expect(await callRefused(server, apiCalls.root_volume, { token: master.token, body: { path: '/Team/big', volume: 1000 } })).toMatchObject({ status: 400 });
    const set = await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/Small', volume: 1000 } });
    expect(set).toMatchObject({ status: 200, body: { name: 'Small', volume: 1000, usage: 0 } });

    expect(await call(server, apiCalls.file_copy, { token: user.token, body: { path: '/Team/big', name: 'big.bin', newPath: '/Small' } })).toMatchObject({
      status: 200,
    });
    expect(await usageOf(server, user.token, '/Small')).toBe(600);
    const refs = await refCount(server, 'big');
    const over = await callRefused(server, apiCalls.file_copy, {
      token: user.token,
      body: { path: '/Team/big', name: 'big.bin', newPath: '/Small', onConflict: 'keep-both' },
    });
    expect(over).toMatchObject({ status: 413, body: { message: 'volume_exceeded_warning' } });
    expect(await usageOf(server, user.token, '/Small')).toBe(600);
    expect(await refCount(server, 'big')).toBe(refs);
    expect(await namesIn(server, user.token, '/Small')).toEqual(['big.bin']);
    expect(
      await callRefused(server, apiCalls.file_move, {
        token: user.token,
        body: { path: '/Team/big', name: 'big.bin', newPath: '/Small', onConflict: 'keep-both' },
      }),
    ).toMatchObject({
      status: 413,
    });
    // The FileTree seam refuses the same way, before and while adding.
    const small = await server.app.fileTree.resolve('/Small');
    await expect(server.app.fileTree.assertRoom(small!, 401)).rejects.toMatchObject({ statusCode: 413, messageKey: 'volume_exceeded_warning' });
    await expect(server.app.fileTree.assertRoom(small!, 400)).resolves.toBeUndefined();
    await expect(addFile(server, '/Small', 'more.bin', 401, user.user._id)).rejects.toMatchObject({ statusCode: 413 });
    expect(await usageOf(server, user.token, '/Small')).toBe(600);

    const usage = await call(server, apiCalls.root_usage, { token: user.token });
    expect(usage.body.roots.find((r) => r.name === 'Small')).toEqual({
      name: 'Small',
      path: '/Small',
      usage: 600,
      volume: 1000,
      breakdown: { live: 600, versions: 0, trash: 0 },
    });
    expect(usage.body.total).toBeNull();
    expect(usage.body.used).toBe(usage.body.roots.reduce((s, r) => s + r.usage, 0));

    expect(await call(server, apiCalls.root_volume, { token: master.token, body: { path: '/Small', volume: null } })).toMatchObject({
      status: 200,
      body: { volume: null },
    });
    expect(
      await call(server, apiCalls.file_copy, { token: user.token, body: { path: '/Team/big', name: 'big.bin', newPath: '/Small', onConflict: 'keep-both' } }),
    ).toMatchObject({
      status: 200,
    });
  });

  it('answers usage per backend to administrators', async () => {
    expect(await callRefused(server, apiCalls.dashboard_volume, { token: user.token })).toMatchObject({ status: 403 });
    const res = await call(server, apiCalls.dashboard_volume, { token: master.token });
    const roots = await call(server, apiCalls.root_usage, { token: master.token });
    const serverBytes = roots.body.roots.filter((r) => r.name !== 'Cloud').reduce((s, r) => s + r.usage, 0);
    expect(res.body).toEqual({ usage: { server: serverBytes, cloud: 0 }, volume: { server: null, cloud: null } });
  });
});
