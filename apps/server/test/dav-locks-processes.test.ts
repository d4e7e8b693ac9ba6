import { afterAll, beforeAll, describe, expect, inject, it } from 'vitest';
import { type HttpTarget } from './harness.js';
import { basic, dav, davPath, makeAppPassword } from './dav-helpers.js';
import { type Cluster, redisForSuite, startCluster } from './multi-process/cluster.js';

// WebDAV locks on two server processes (the multi-process tier: one PostgreSQL, two
// processes): a lock taken through one holds for writes through the other, and LOCKs sent
// to both at once grant one.

const postgres = inject('postgres');
const LOCK_BODY =
  '<?xml version="1.0" encoding="utf-8"?><D:lockinfo xmlns:D="DAV:"><D:lockscope><D:exclusive/></D:lockscope><D:locktype><D:write/></D:locktype></D:lockinfo>';

describe('WebDAV locks across two server processes', async () => {
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

  const put = (via: HttpTarget, path: string, ifHeader?: string) =>
    dav(via, 'PUT', path, { auth, body: Buffer.from('bytes'), headers: { 'content-type': 'text/plain', ...(ifHeader ? { if: ifHeader } : {}) } });
  const lock = (via: HttpTarget, path: string) => dav(via, 'LOCK', path, { auth, body: LOCK_BODY });

  it.skipIf(skip)('a lock taken through process A blocks a PUT through process B until its token is sent or it is unlocked', async () => {
    const path = davPath(`${cluster.roots.server}/잠긴 문서.txt`);
    expect((await put(cluster.a, path)).status).toBe(201);
    const locked = await lock(cluster.a, path);
    expect(locked.status).toBe(200);
    const token = /^<(.+)>$/.exec(locked.headers.get('lock-token') ?? '')?.[1];
    expect(token).toBeTruthy();
    expect((await put(cluster.b, path)).status).toBe(423);
    expect((await lock(cluster.b, path)).status).toBe(423);
    expect((await put(cluster.b, path, `(<${token}>)`)).status).toBe(204);
    expect((await dav(cluster.b, 'UNLOCK', path, { auth, headers: { 'lock-token': `<${token}>` } })).status).toBe(204);
    expect((await put(cluster.a, path)).status).toBe(204);
  });

  it.skipIf(skip)('20 LOCKs of one file sent to both processes at once: one 200, the others 423', async () => {
    const path = davPath(`${cluster.roots.cloud}/동시 잠금.txt`);
    expect((await put(cluster.a, path)).status).toBe(201);
    const answers = await Promise.all(Array.from({ length: 20 }, (_, i) => lock(i % 2 ? cluster.a : cluster.b, path)));
    const statuses = answers.map((a) => a.status);
    expect(statuses.filter((s) => s === 200)).toHaveLength(1);
    expect(statuses.filter((s) => s === 423)).toHaveLength(19);
  });
});
