import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { basic, dav, davPath, hrefsOf, makeAppPassword, PROPFIND_ALL, responseOf } from '../dav-helpers.js';
import { sha256 } from '../transfer-helpers.js';
import { type Cluster, redisForSuite, startCluster } from './cluster.js';

// The WebDAV tree on two server processes (one PostgreSQL, one Redis, one bucket, a shared
// server root): what one process wrote, the other lists and serves, on both backends.

const postgres = inject('postgres');

describe('WebDAV across two server processes', async () => {
  const skip = !postgres || !(await redisForSuite());
  let cluster: Cluster;
  let auth: string;

  beforeAll(async () => {
    if (skip) return;
    cluster = await startCluster();
    auth = basic('master@example.com', await makeAppPassword(cluster.http, cluster.master.token));
  }, 300_000);
  afterAll(async () => {
    await cluster?.close();
  });

  for (const which of ['server', 'cloud'] as const) {
    it.skipIf(skip)(`${which} root: PUT through A is listed and served by B; MOVE through B is where A looks`, async () => {
      const root = cluster.roots[which];
      const folder = `${root}/분기 보고`;
      const body = Buffer.from(`매출 요약 ${which} `.repeat(2000));
      expect((await dav(cluster.a, 'MKCOL', davPath(folder), { auth })).status).toBe(201);
      const put = await dav(cluster.a, 'PUT', davPath(`${folder}/3분기.txt`), { auth, body });
      expect(put.status).toBe(201);

      const listed = await dav(cluster.b, 'PROPFIND', davPath(folder, true), { auth, headers: { depth: '1' }, body: PROPFIND_ALL });
      expect(listed.status).toBe(207);
      expect(hrefsOf(listed.text)).toEqual([`/dav${folder}/`, `/dav${folder}/3분기.txt`]);
      const entry = responseOf(listed.text, `/dav${folder}/3분기.txt`)!;
      expect(entry).toContain(`<D:getcontentlength>${body.length}</D:getcontentlength>`);
      expect(entry).toContain(`<D:getetag>&quot;${sha256(body)}&quot;</D:getetag>`);
      expect(put.headers.get('etag')).toBe(`"${sha256(body)}"`);
      const got = await dav(cluster.b, 'GET', davPath(`${folder}/3분기.txt`), { auth });
      expect(got.status).toBe(200);
      expect(sha256(got.bytes)).toBe(sha256(body));

      const destination = `${cluster.b.url}${davPath(`${root}/보관함/최종 3분기.txt`)}`;
      expect((await dav(cluster.b, 'MKCOL', davPath(`${root}/보관함`), { auth })).status).toBe(201);
      expect((await dav(cluster.b, 'MOVE', davPath(`${folder}/3분기.txt`), { auth, headers: { destination } })).status).toBe(201);
      expect((await dav(cluster.a, 'PROPFIND', davPath(`${folder}/3분기.txt`), { auth, headers: { depth: '0' } })).status).toBe(404);
      const moved = await dav(cluster.a, 'PROPFIND', davPath(`${root}/보관함`, true), { auth, headers: { depth: '1' } });
      expect(hrefsOf(moved.text)).toEqual([`/dav${root}/보관함/`, `/dav${root}/보관함/최종 3분기.txt`]);
      const again = await dav(cluster.a, 'GET', davPath(`${root}/보관함/최종 3분기.txt`), { auth });
      expect(again.status).toBe(200);
      expect(sha256(again.bytes)).toBe(sha256(body));
      expect(again.headers.get('etag')).toBe(put.headers.get('etag'));
    });
  }
});
