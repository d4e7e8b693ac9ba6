import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { makeFolder, makeUser } from './factories.js';
import { addFile, namesIn } from './files-helpers.js';
import { answerOf, call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('a personal trash on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  const trash = (token: string, paths: string[]) => call(server, apiCalls.file_trash, { token, body: { paths } });
  const mine = async (token: string) => (await call(server, apiCalls.trash_list_mine, { token })).body;
  const restore = (token: string, ids: string[]) => call(server, apiCalls.trash_restore, { token, body: { ids } });
  const restoreRefused = (token: string, ids: string[]) => callRefused(server, apiCalls.trash_restore, { token, body: { ids } });
  const idIn = async (token: string, name: string) => (await mine(token)).items.find((i) => i.name === name)!._id;

  it("lists only what the caller trashed, for every role; another user's items cannot be restored", async () => {
    const team = (await makeFolder(server, master.token)).path;
    const admin = await makeUser(server, { role: 'ADMIN' });
    const alice = await makeUser(server);
    const bob = await makeUser(server);
    await addFile(server, team, 'alice.txt', 10, alice.user._id);
    await addFile(server, team, 'bob.txt', 20, bob.user._id);
    await trash(alice.token, [`${team}/alice.txt`]);
    await trash(bob.token, [`${team}/bob.txt`]);

    const aliceTrash = await mine(alice.token);
    expect(aliceTrash.items.map((i) => i.name)).toEqual(['alice.txt']);
    expect(aliceTrash.total).toBe(1);
    expect(aliceTrash.items[0]).toMatchObject({ path: `${team}/alice.txt`, trashedBy: { _id: alice.user._id } });
    expect((await mine(bob.token)).items.map((i) => i.name)).toEqual(['bob.txt']);
    // An administrator's own trash holds what they trashed; the administrative trash holds everyone's.
    expect((await mine(admin.token)).total).toBe(0);
    expect((await call(server, apiCalls.trash_list, { token: admin.token })).body.total).toBe(2);
    expect((await callRefused(server, apiCalls.trash_list_mine)).status).toBe(401);

    const bobItem = await idIn(bob.token, 'bob.txt');
    expect((await restoreRefused(alice.token, [bobItem])).status).toBe(404);
    // All or none: one foreign id refuses the whole restore.
    expect((await restoreRefused(alice.token, [await idIn(alice.token, 'alice.txt'), bobItem])).status).toBe(404);
    expect(await namesIn(server, alice.token, team)).toEqual([]);
    expect((await mine(bob.token)).total).toBe(1);
    // Only administrators delete for good.
    expect((await callRefused(server, apiCalls.trash_delete, { token: bob.token, params: { id: bobItem } })).status).toBe(403);
    expect((await callRefused(server, apiCalls.trash_empty, { token: bob.token })).status).toBe(403);

    expect((await restore(alice.token, [await idIn(alice.token, 'alice.txt')])).body).toEqual({ count: 1 });
    expect(await namesIn(server, alice.token, team)).toEqual(['alice.txt']);
    expect((await mine(alice.token)).total).toBe(0);
  });

  it('a restore onto a name taken meanwhile is refused as in the administrative trash, nothing changed', async () => {
    const team = (await makeFolder(server, master.token)).path;
    const alice = await makeUser(server);
    await addFile(server, team, 'plan.txt', 30, alice.user._id, 'plan-old');
    await trash(alice.token, [`${team}/plan.txt`]);
    await addFile(server, team, 'plan.txt', 40, alice.user._id, 'plan-new');
    const res = await restoreRefused(alice.token, [await idIn(alice.token, 'plan.txt')]);
    expect(res.body).toEqual({ statusCode: 409, message: 'file_exists_warning' });
    expect((await mine(alice.token)).items.map((i) => i.name)).toContain('plan.txt');
    const listed = await call(server, apiCalls.file_list, { token: alice.token, query: { path: team } });
    expect(listed.body.items.find((i) => i.name === 'plan.txt')!.size).toBe(40);
    // Renamed out of the way, it comes back.
    await call(server, apiCalls.file_rename, { token: alice.token, body: { path: team, name: 'plan.txt', newName: 'plan-new.txt' } });
    await restore(alice.token, [await idIn(alice.token, 'plan.txt')]);
  });

  it('a restore into a root folder over its volume limit is refused (413), nothing changed', async () => {
    const alice = await makeUser(server);
    const small = (await makeFolder(server, master.token)).path;
    await addFile(server, small, 'keep.bin', 600, alice.user._id);
    await addFile(server, small, 'back.bin', 300, alice.user._id);
    await trash(alice.token, [`${small}/back.bin`]);
    // The limit was lowered below what the root already keeps.
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: small, volume: 800 } });
    const id = await idIn(alice.token, 'back.bin');
    expect((await restoreRefused(alice.token, [id])).body).toEqual({ statusCode: 413, message: 'volume_exceeded_warning' });
    expect(await namesIn(server, alice.token, small)).toEqual(['keep.bin']);
    expect((await mine(alice.token)).items.map((i) => i.name)).toContain('back.bin');
    // Back under the limit, the same restore goes through.
    await call(server, apiCalls.root_volume, { token: master.token, body: { path: small, volume: 900 } });
    await restore(alice.token, [id]);
    expect((await namesIn(server, alice.token, small)).sort()).toEqual(['back.bin', 'keep.bin']);
  });

  it('a restore needs TRASH on the folder it returns to, now', async () => {
    const team = (await makeFolder(server, master.token)).path;
    const bob = await makeUser(server);
    const docs = (await makeFolder(server, master.token, { parent: team, name: 'Docs' })).path;
    await addFile(server, docs, 'note.txt', 5, bob.user._id);
    await trash(bob.token, [`${docs}/note.txt`]);
    await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: docs, users: [{ entity: bob.user._id, permissions: ['READ'] }] },
    });
    expect((await restoreRefused(bob.token, [await idIn(bob.token, 'note.txt')])).status).toBe(403);
    expect((await mine(bob.token)).items.map((i) => i.name)).toContain('note.txt');
  });

  it('restores of the same item at once: one succeeds, the rest are refused', async () => {
    const team = (await makeFolder(server, master.token)).path;
    const alice = await makeUser(server);
    await addFile(server, team, 'race.txt', 7, alice.user._id);
    await trash(alice.token, [`${team}/race.txt`]);
    const id = await idIn(alice.token, 'race.txt');
    // A race: each answer may be a success or a refusal.
    const answers = await Promise.all(Array.from({ length: 6 }, () => answerOf(server, apiCalls.trash_restore, { token: alice.token, body: { ids: [id] } })));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.every((a) => a.status === 200 || a.status === 404)).toBe(true);
    expect((await namesIn(server, alice.token, team)).filter((n) => n === 'race.txt')).toHaveLength(1);
  });
});
