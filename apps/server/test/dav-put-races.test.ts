import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { FileTreeService } from '../src/modules/files/file-tree.js';
import { namesIn, usageOf } from './files-helpers.js';
import { call, describeEachDialectAndBackend, startServer, type TestServer } from './harness.js';
import { useS3 } from './s3.js';
import { sha256 } from './transfer-helpers.js';
import { type DavAccount, dav, davMaster, davPath, davRoot, davUser } from './dav-helpers.js';

// PUTs of one new name at the same moment (rclone --transfers, an office autosave): the last
// writer wins. A PUT whose name was taken while its body was stored replaces that file,
// checked as a PUT over it (UPDATE, locks), never losing more than a replace means.

const s3Server = useS3();
const LOCK_BODY =
  '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';

describeEachDialectAndBackend('WebDAV PUTs of one new name on $dialect, $backend backend', (dialect, backend) => {
  let server: TestServer;
  let master: DavAccount;
  const root = `/동시 ${backend}`;

  beforeAll(async () => {
    server = await startServer(dialect, s3Server().env);
    master = await davMaster(server);
    await davRoot(server, master.token, root.slice(1), backend, () => s3Server().bucket());
  });
  afterAll(async () => {
    await server?.close();
  });

  const refs = async (hash: string) =>
    (await server.app.db.selectFrom('blobs').select('ref_count').where('backend', '=', backend).where('hash', '=', hash).executeTakeFirst())?.ref_count ?? 0;
  const nodesNamed = async (name: string) =>
    server.app.db.selectFrom('nodes').select(['id', 'content_hash', 'size']).where('name', '=', name).where('trash_key', '=', '').execute();

  /**
   * Makes the next `addFile` of `name` find it taken: `before` runs first (it adds the
   * competing file), then the PUT's own add goes on. No timing involved.
   */
  const takeNameFirst = (name: string, before: () => Promise<void>) => {
    const tree = server.app.fileTree as FileTreeService;
    const original = tree.addFile.bind(tree);
    tree.addFile = async (folder, file, options) => {
      if (file.name === name) {
        tree.addFile = original;
        await before();
      }
      return original(folder, file, options);
    };
  };

  it('10 PUTs of the same new name at once: all succeed, one file holding one of the bodies, the others kept as its versions', async () => {
    const name = '보고서 동시.txt';
    const path = `${root}/${name}`;
    const bodies = Array.from({ length: 10 }, (_, i) => Buffer.from(`version ${i} `.repeat(i + 1)));
    const before = await usageOf(server, master.token, root);
    const answers = await Promise.all(bodies.map((body) => dav(server, 'PUT', davPath(path), { auth: master.auth, body })));
    const statuses = answers.map((a) => a.status);
    expect(
      statuses.every((s) => s === 201 || s === 204),
      statuses.join(','),
    ).toBe(true);
    expect(statuses.filter((s) => s === 201)).toHaveLength(1);

    const rows = await nodesNamed(name);
    expect(rows).toHaveLength(1);
    const got = await dav(server, 'GET', davPath(path), { auth: master.auth });
    expect(got.status).toBe(200);
    const winner = bodies.find((b) => b.equals(got.bytes));
    expect(winner).toBeDefined();
    expect(rows[0]!.content_hash).toBe(sha256(winner!));
    // Each replaced body stays as a version (ten fit the default retention): usage counts them all, each blob once.
    expect(await usageOf(server, master.token, root)).toBe(before + bodies.reduce((sum, b) => sum + b.length, 0));
    expect(await refs(sha256(winner!))).toBe(1);
    for (const body of bodies.filter((b) => b !== winner)) expect(await refs(sha256(body))).toBe(1);
    expect((await namesIn(server, master.token, root)).filter((n) => n === name)).toHaveLength(1);
  });

  it('a name taken while the body was stored is replaced (204), the other file keeps its id, takes the new content and keeps the old as a version', async () => {
    const name = 'autosave.docx';
    const path = `${root}/${name}`;
    let firstId = '';
    takeNameFirst(name, async () => {
      expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: 'first writer' })).status).toBe(201);
      firstId = (await nodesNamed(name))[0]!.id;
    });
    const res = await dav(server, 'PUT', davPath(path), { auth: master.auth, body: 'second writer' });
    expect(res.status).toBe(204);
    expect(res.headers.get('etag')).toBe(`"${sha256(Buffer.from('second writer'))}"`);
    const rows = await nodesNamed(name);
    expect(rows.map((r) => r.id)).toEqual([firstId]);
    expect((await dav(server, 'GET', davPath(path), { auth: master.auth })).text).toBe('second writer');
    // The first writer's content is kept as the file's earlier version.
    expect(await refs(sha256(Buffer.from('first writer')))).toBe(1);
  });

  it('a USER who may create but not update gets 403 when the name was taken meanwhile; the other file stays whole', async () => {
    const user = await davUser(server, `create-only-${dialect}-${backend}@example.com`);
    const grant = await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: root, users: [{ entity: user.userId, permissions: ['READ', 'DOWNLOAD', 'CREATE'] }] },
    });
    expect(grant.status, grant.text).toBe(200);
    const name = 'create-only.txt';
    const path = `${root}/${name}`;
    const usage = await usageOf(server, master.token, root);
    takeNameFirst(name, async () => {
      expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: 'the owner wrote this' })).status).toBe(201);
    });
    expect((await dav(server, 'PUT', davPath(path), { auth: user.auth, body: 'the user tried this' })).status).toBe(403);
    expect((await dav(server, 'GET', davPath(path), { auth: master.auth })).text).toBe('the owner wrote this');
    expect(await nodesNamed(name)).toHaveLength(1);
    expect(await usageOf(server, master.token, root)).toBe(usage + 'the owner wrote this'.length);
    expect(await refs(sha256(Buffer.from('the user tried this')))).toBe(0);
  });

  it('a name taken and locked by another client meanwhile: 423, the locked file unchanged', async () => {
    const name = 'locked-meanwhile.txt';
    const path = `${root}/${name}`;
    takeNameFirst(name, async () => {
      expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: 'locked content' })).status).toBe(201);
      expect((await dav(server, 'LOCK', davPath(path), { auth: master.auth, body: LOCK_BODY })).status).toBe(200);
    });
    expect((await dav(server, 'PUT', davPath(path), { auth: master.auth, body: 'without the token' })).status).toBe(423);
    expect((await dav(server, 'GET', davPath(path), { auth: master.auth })).text).toBe('locked content');
    expect(await nodesNamed(name)).toHaveLength(1);
  });
});
