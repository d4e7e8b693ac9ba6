import { afterAll, beforeAll, expect, it } from 'vitest';
import { addFile, namesIn, signInAs } from './files-helpers.js';
import { describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

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
    for (const name of ['Team', 'Team2']) await server.request('POST', '/api/file', { token: master.token, body: { name, path: '/' } });
    await server.request('POST', '/api/file', { token: master.token, body: { name: 'x', path: '/Team' } });
    await addFile(server, '/Team', 'f.txt', 1, user.user._id);
    await addFile(server, '/Team2', 'secret.txt', 1, master.user._id);
  });
  afterAll(async () => {
    await server?.close();
  });

  const expectInvalid = async (method: string, uri: string, body?: unknown) => {
    const res = await server.request(method, uri, { token: user.token, body });
    expect({ method, uri, body, status: res.status, message: res.body?.message }).toEqual({
      method,
      uri,
      body,
      status: 400,
      message: 'invalid_path',
    });
  };

  it('refuses bad paths in every query field', async () => {
    for (const raw of [...BAD_PATHS.map(encodeURIComponent), ...BAD_QUERY_PATHS]) {
      await expectInvalid('GET', `/api/file/list?path=${raw}`);
      await expectInvalid('GET', `/api/file/tree?path=${raw}`);
      await expectInvalid('GET', `/api/resource/permission?path=${raw}`);
    }
  });

  it('refuses bad paths in every body field', async () => {
    const move = { path: '/Team', name: 'f.txt', newPath: '/Team2' };
    for (const bad of BAD_PATHS) {
      await expectInvalid('POST', '/api/file', { name: 'new', path: bad });
      for (const uri of ['/api/file/move', '/api/file/copy']) {
        await expectInvalid('POST', uri, { ...move, path: bad });
        await expectInvalid('POST', uri, { ...move, newPath: bad });
      }
      await expectInvalid('PUT', '/api/file/rename', { path: bad, name: 'f.txt', newName: 'g.txt' });
      await expectInvalid('POST', '/api/file/trash', { paths: ['/Team/f.txt', bad] });
      await expectInvalid('PUT', '/api/file/star', { path: bad, starred: true });
      await expectInvalid('PUT', '/api/file/lock', { path: bad, lock: true });
    }
    const volume = await server.request('PUT', '/api/file/root/volume', { token: master.token, body: { path: '/Team/../Team2', volume: 1 } });
    expect(volume).toMatchObject({ status: 400, body: { message: 'invalid_path' } });
  });

  it('refuses names that would climb out of their folder', async () => {
    for (const name of ['..', '.', '../Team2', 'a/b', 'a\\b', 'nul\u0000']) {
      await expectInvalid('POST', '/api/file/move', { path: '/Team', name, newPath: '/Team2' });
      await expectInvalid('POST', '/api/file/copy', { path: '/Team', name, newPath: '/Team2' });
      await expectInvalid('PUT', '/api/file/rename', { path: '/Team', name, newName: 'z.txt' });
      await expectInvalid('PUT', '/api/file/rename', { path: '/Team', name: 'f.txt', newName: name });
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
    await server.request('POST', '/api/file', { token: master.token, body: { name: 'Team', path: '/Team2' } });
    const res = await server.request('POST', '/api/file/trash', { token: user.token, body: { paths: ['/Team2/Team', '/Team2/secret.txt'] } });
    expect(res.body.ids).toHaveLength(2);
    expect(await namesIn(server, user.token, '/Team2')).toEqual([]);
    // A path that only shares a prefix with an existing one does not resolve.
    expect(await server.request('GET', '/api/file/list?path=/Tea', { token: user.token })).toMatchObject({ status: 404 });
    expect(await server.request('GET', '/api/file/list?path=/Team/', { token: user.token })).toMatchObject({ status: 200 });
  });
});
