import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, namesIn, signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, type RefusalAnswer, setupMaster, startServer, type TestServer } from './harness.js';

/** Paths that break the path rules, whatever field they come in. */
const BAD_PATHS = [
  '/Team/../Team2',
  '/Team/..',
  '/../Team',
  '/Team/./x',
  '..',
  'Team',
  '',
  '/Team\\..\\Team2',
  '\\Team',
  '/Team/x\u0000',
  '/Team/\u0000/x',
  '//Team',
  '/Team//x',
  '/Team/ x',
  '/Team/\u001b',
  `/${'a'.repeat(256)}`,
];

/** Bad paths as they look inside a query string, some percent-encoded (Fastify decodes them). */
const BAD_QUERY_PATHS = ['/Team/%2e%2e/Team2', '/%2E%2E', '/Team/%2e', '%2e%2e', '/Team%5c..%5cTeam2', '/Team/%00', '//Team', '/Team/..%2fTeam2'];

describeEachDialect('path safety on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'user@example.com');
    for (const name of ['Team', 'Team2']) await call(server, apiCalls.folder_create, { token: master.token, body: { name, path: '/' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'x', path: '/Team' } });
    await addFile(server, '/Team', 'f.txt', 1, user.user._id);
    await addFile(server, '/Team2', 'secret.txt', 1, master.user._id);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Expects the answer to be 400 `invalid_path`; `input` names the call and what it sent in a failure. */
  const expectInvalid = async (input: Record<string, unknown>, answer: Promise<RefusalAnswer>) => {
    // An answer that is no refusal shows as its error, beside the input.
    const res = await answer.catch((error: unknown) => ({ status: String(error), body: { message: undefined } }));
    expect({ input, status: res.status, message: res.body.message }).toEqual({ input, status: 400, message: 'invalid_path' });
  };
  /** The same for a query sent as written, percent-encoding and all (the typed calls encode their query themselves). */
  const expectInvalidRaw = async (uri: string) => {
    const res = await server.request('GET', uri, { token: user.token });
    expect({ uri, status: res.status, message: res.body?.message }).toEqual({ uri, status: 400, message: 'invalid_path' });
  };

  it('refuses bad paths in every query field', async () => {
    for (const path of BAD_PATHS) {
      await expectInvalid({ list: path }, callRefused(server, apiCalls.file_list, { token: user.token, query: { path } }));
      await expectInvalid({ tree: path }, callRefused(server, apiCalls.file_tree, { token: user.token, query: { path } }));
      await expectInvalid({ permission: path }, callRefused(server, apiCalls.resource_permission, { token: user.token, query: { path } }));
    }
    for (const raw of BAD_QUERY_PATHS) {
      await expectInvalidRaw(`/api/file/list?path=${raw}`);
      await expectInvalidRaw(`/api/file/tree?path=${raw}`);
      await expectInvalidRaw(`/api/resource/permission?path=${raw}`);
    }
  });

  it('refuses bad paths in every body field', async () => {
    const move = { path: '/Team', name: 'f.txt', newPath: '/Team2' };
    for (const bad of BAD_PATHS) {
      const folder = { name: 'new', path: bad };
      await expectInvalid({ folder }, callRefused(server, apiCalls.folder_create, { token: user.token, body: folder }));
      for (const [name, contract] of [
        ['move', apiCalls.file_move],
        ['copy', apiCalls.file_copy],
      ] as const) {
        for (const body of [
          { ...move, path: bad },
          { ...move, newPath: bad },
        ]) {
          await expectInvalid({ [name]: body }, callRefused(server, contract, { token: user.token, body }));
        }
      }
      const rename = { path: bad, name: 'f.txt', newName: 'g.txt' };
      await expectInvalid({ rename }, callRefused(server, apiCalls.file_rename, { token: user.token, body: rename }));
      const trash = { paths: ['/Team/f.txt', bad] };
      await expectInvalid({ trash }, callRefused(server, apiCalls.file_trash, { token: user.token, body: trash }));
      const star = { path: bad, starred: true };
      await expectInvalid({ star }, callRefused(server, apiCalls.file_star, { token: user.token, body: star }));
      const lock = { path: bad, lock: true };
      await expectInvalid({ lock }, callRefused(server, apiCalls.file_lock, { token: user.token, body: lock }));
    }
    const volume = await callRefused(server, apiCalls.root_volume, { token: master.token, body: { path: '/Team/../Team2', volume: 1 } });
    expect(volume).toMatchObject({ status: 400, body: { message: 'invalid_path' } });
  });

  it('refuses names that would climb out of their folder', async () => {
    for (const name of ['..', '.', '../Team2', 'a/b', 'a\\b', 'nul\u0000']) {
      const out = { path: '/Team', name, newPath: '/Team2' };
      await expectInvalid({ move: out }, callRefused(server, apiCalls.file_move, { token: user.token, body: out }));
      await expectInvalid({ copy: out }, callRefused(server, apiCalls.file_copy, { token: user.token, body: out }));
      const from = { path: '/Team', name, newName: 'z.txt' };
      await expectInvalid({ rename: from }, callRefused(server, apiCalls.file_rename, { token: user.token, body: from }));
      const to = { path: '/Team', name: 'f.txt', newName: name };
      await expectInvalid({ rename: to }, callRefused(server, apiCalls.file_rename, { token: user.token, body: to }));
    }
    await expect(addFile(server, '/Team', '../escape.txt', 1, user.user._id)).rejects.toMatchObject({ statusCode: 400, messageKey: 'invalid_path' });
    expect(await namesIn(server, user.token, '/Team')).toEqual(['x', 'f.txt']);
    expect(await namesIn(server, user.token, '/Team2')).toEqual(['secret.txt']);
  });

  it('never treats /Team2 as inside /Team', async () => {
    expect(await server.app.fileTree.resolve('/Team2/secret.txt')).toMatchObject({ name: 'secret.txt' });
    const team = await server.app.fileTree.resolve('/Team');
    const inTeam: string[] = [];
    for await (const entry of server.app.fileTree.walk(team!)) inTeam.push(entry.relativePath);
    expect(inTeam).toEqual(['x', 'f.txt']);
    // Trashing /Team/x and /Team2/… together: the second is not taken as part of the first.
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/Team2' } });
    const res = await call(server, apiCalls.file_trash, { token: user.token, body: { paths: ['/Team2/Team', '/Team2/secret.txt'] } });
    expect(res.body.ids).toHaveLength(2);
    expect(await namesIn(server, user.token, '/Team2')).toEqual([]);
    // A path that only shares a prefix with an existing one does not resolve.
    expect(await callRefused(server, apiCalls.file_list, { token: user.token, query: { path: '/Tea' } })).toMatchObject({ status: 404 });
    expect(await call(server, apiCalls.file_list, { token: user.token, query: { path: '/Team/' } })).toMatchObject({ status: 200 });
  });
});
