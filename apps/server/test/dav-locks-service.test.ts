import { expect, it, onTestFinished } from 'vitest';
import { type Db, migrateToLatest, openDb } from '../src/db/index.js';
import { type DavLock, DavLockRefusal, DavLocksService, type WriteContext, conflictsWith } from '../src/modules/dav/locks/dav-locks.js';
import { DavLocksRepo } from '../src/modules/dav/locks/locks.repo.js';
import { newLocalUser } from '../src/modules/users/new-user.js';
import { describeEachDialect, type Dialect, GOOD_PASSWORD } from './harness.js';
import { migratedTestDb } from './node-rows.js';
import { createTestDatabase } from './postgres.js';

// The lock service against a real database: conflict rules, the write check with the If
// header, expiry on an injected clock, and one winner among LOCKs taken at once through
// several connections (as several processes would).

const ETAGS: Record<string, string> = { '/영업부/a.txt': '"etag-a"' };
const etagOf = async (p: string) => ETAGS[p] ?? null;
const hrefOf = (p: string) => `/dav${p.split('/').map(encodeURIComponent).join('/')}`;
const pathOfHref = (href: string) => (href.startsWith('/dav/') ? decodeURIComponent(href.slice(4)) : null);

async function account(db: Db, email: string): Promise<string> {
  const row = await newLocalUser({ name: '사용자', email, password: GOOD_PASSWORD, role: 'USER' });
  await db.insertInto('users').values(row).execute();
  return row.id;
}

function newLock(over: Partial<DavLock> & Pick<DavLock, 'path' | 'accountId'>, now: number): DavLock {
  return {
    token: `urn:uuid:${crypto.randomUUID()}`,
    depth: 'infinity',
    scope: 'exclusive',
    ownerXml: '',
    timeoutSeconds: 60,
    createdAt: new Date(now).toISOString(),
    expiresAt: now + 60_000,
    ...over,
  };
}

/** Takes a lock as LOCK does: answers it, or null when a conflicting lock is in the way. */
async function take(repo: DavLocksRepo, now: number, over: Partial<DavLock> & Pick<DavLock, 'path' | 'accountId'>): Promise<DavLock | null> {
  const lock = newLock(over, now);
  const conflicts = await repo.insertUnlessConflicting(lock, now, (near) => conflictsWith(near, lock.path, lock.depth, lock.scope));
  return conflicts.length === 0 ? lock : null;
}

/** Two handles on one fresh, migrated database (as two processes have); closed when the test ends. */
async function twoHandles(dialect: Dialect): Promise<[Db, Db]> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase();
    const handles: [Db, Db] = [openDb({ dialect, url: database.url }), openDb({ dialect, url: database.url })];
    onTestFinished(async () => {
      await Promise.all(handles.map((h) => h.destroy()));
      await database.drop();
    });
    await migrateToLatest(handles[0]);
    return handles;
  }
  // SQLite: one handle. A second connection in the same process would wait for the first
  // synchronously (better-sqlite3 blocks the event loop in its busy handler), so the first could
  // never commit; two processes on one file are the multi-process tier's to show.
  const db = await migratedTestDb(dialect);
  return [db, db];
}

async function refusal(promise: Promise<unknown>): Promise<DavLockRefusal> {
  try {
    await promise;
  } catch (error) {
    if (error instanceof DavLockRefusal) return error;
    throw error;
  }
  throw new Error('expected a refusal');
}

describeEachDialect('WebDAV lock service on $dialect', (dialect) => {
  async function setup() {
    const db = await migratedTestDb(dialect);
    let clock = Date.parse('2026-11-27T12:00:00Z');
    const repo = new DavLocksRepo(db);
    const service = new DavLocksService(repo, () => clock);
    const alice = await account(db, 'alice@example.com');
    const bob = await account(db, 'bob@example.com');
    const context = (accountId: string, ifHeader?: string, requestPath = '/영업부/a.txt'): WriteContext => ({
      account: { id: accountId },
      ifHeader,
      path: requestPath,
      hrefOf,
      pathOfHref,
    });
    return { db, repo, service, alice, bob, context, now: () => clock, advance: (ms: number) => (clock += ms) };
  }

  it('an exclusive lock blocks a write without its token (423 naming the lock root), admits its owner with it', async () => {
    const { repo, service, alice, context, now } = await setup();
    const lock = (await take(repo, now(), { path: '/영업부/a.txt', accountId: alice }))!;
    const target = [{ path: '/영업부/a.txt', deep: false }];
    const refused = await refusal(service.assertCanWrite(context(alice), target, etagOf));
    expect(refused.status).toBe(423);
    expect(refused.body).toContain(`<D:lock-token-submitted><D:href>${hrefOf('/영업부/a.txt')}</D:href></D:lock-token-submitted>`);
    await service.assertCanWrite(context(alice, `(<${lock.token}>)`), target, etagOf);
    await service.assertCanWrite(context(alice, `(<${lock.token}> ["etag-a"])`), target, etagOf);
  });

  it("another account submitting the owner's token is still locked out", async () => {
    const { repo, service, alice, bob, context, now } = await setup();
    const lock = (await take(repo, now(), { path: '/영업부/a.txt', accountId: alice }))!;
    const refused = await refusal(service.assertCanWrite(context(bob, `(<${lock.token}>)`), [{ path: '/영업부/a.txt', deep: false }], etagOf));
    expect(refused.status).toBe(423);
  });

  it('If header: a wrong ETag is 412, a malformed header 400, a true one without locks passes', async () => {
    const { service, alice, context } = await setup();
    const target = [{ path: '/영업부/a.txt', deep: false }];
    expect((await refusal(service.assertCanWrite(context(alice, '(["other"])'), target, etagOf))).status).toBe(412);
    expect((await refusal(service.assertCanWrite(context(alice, '(<no uri>)'), target, etagOf))).status).toBe(400);
    expect((await refusal(service.assertConditions(context(alice, 'garbage'), etagOf))).status).toBe(400);
    await service.assertCanWrite(context(alice, '(["etag-a"])'), target, etagOf);
  });

  it('shared locks share; an exclusive lock conflicts with either', async () => {
    const { repo, alice, bob, now } = await setup();
    expect(await take(repo, now(), { path: '/영업부/a.txt', accountId: alice, scope: 'shared' })).not.toBeNull();
    expect(await take(repo, now(), { path: '/영업부/a.txt', accountId: bob, scope: 'shared' })).not.toBeNull();
    expect(await take(repo, now(), { path: '/영업부/a.txt', accountId: bob, scope: 'exclusive' })).toBeNull();
    expect(await take(repo, now(), { path: '/영업부/b.txt', accountId: alice, scope: 'exclusive' })).not.toBeNull();
    expect(await take(repo, now(), { path: '/영업부/b.txt', accountId: bob, scope: 'shared' })).toBeNull();
  });

  it('depth infinity reaches down: a folder lock blocks its members, and conflicts with locks below it', async () => {
    const { repo, service, alice, bob, context, now } = await setup();
    expect(await take(repo, now(), { path: '/영업부/보고서/x.txt', accountId: bob, depth: '0' })).not.toBeNull();
    // A depth-infinity lock on the folder would cover bob's locked file: refused.
    expect(await take(repo, now(), { path: '/영업부/보고서', accountId: alice })).toBeNull();
    // Depth 0 on the folder covers the folder alone: allowed, and does not block a member's write.
    const folderLock = (await take(repo, now(), { path: '/영업부/보고서', accountId: alice, depth: '0' }))!;
    expect(folderLock).not.toBeNull();
    await service.assertCanWrite(context(alice, undefined, '/영업부/보고서/y.txt'), [{ path: '/영업부/보고서/y.txt', deep: false }], etagOf);
    // …but adding a member changes the folder: its token is needed.
    const refused = await refusal(
      service.assertCanWrite(
        context(alice, undefined, '/영업부/보고서/y.txt'),
        [
          { path: '/영업부/보고서/y.txt', deep: false },
          { path: '/영업부/보고서', deep: false },
        ],
        etagOf,
      ),
    );
    expect(refused.status).toBe(423);
    const root = (await take(repo, now(), { path: '/기획부', accountId: alice }))!;
    const child = [{ path: '/기획부/깊은/c.txt', deep: false }];
    expect((await refusal(service.assertCanWrite(context(bob, undefined, '/기획부/깊은/c.txt'), child, etagOf))).status).toBe(423);
    await service.assertCanWrite(context(alice, `(<${root.token}>)`, '/기획부/깊은/c.txt'), child, etagOf);
    // Deleting the folder above bob's locked file needs bob's token (deep target).
    expect((await refusal(service.assertCanWrite(context(alice, undefined, '/영업부'), [{ path: '/영업부', deep: true }], etagOf))).status).toBe(423);
    // Names beyond the BMP (counted as one character by both databases, two UTF-16 units in JS).
    expect(await take(repo, now(), { path: '/😀팀/하위/🎉.txt', accountId: bob, depth: '0' })).not.toBeNull();
    expect((await refusal(service.assertCanWrite(context(alice, undefined, '/😀팀/하위'), [{ path: '/😀팀/하위', deep: true }], etagOf))).status).toBe(423);
    await service.assertCanWrite(context(alice, undefined, '/😀팀/하'), [{ path: '/😀팀/하', deep: true }], etagOf);
  });

  it('expired locks are ignored by every check and purged by housekeeping', async () => {
    const { db, repo, service, alice, bob, context, now, advance } = await setup();
    await take(repo, now(), { path: '/영업부/a.txt', accountId: alice, timeoutSeconds: 5, expiresAt: now() + 5000 });
    const target = [{ path: '/영업부/a.txt', deep: false }];
    expect((await refusal(service.assertCanWrite(context(bob), target, etagOf))).status).toBe(423);
    advance(5001);
    await service.assertCanWrite(context(bob), target, etagOf);
    expect(await service.lockDiscovery('/영업부/a.txt', hrefOf)).toBe('<D:lockdiscovery xmlns:D="DAV:"></D:lockdiscovery>');
    expect(await take(repo, now(), { path: '/영업부/a.txt', accountId: bob })).not.toBeNull();
    await service.housekeeping().run();
    expect(await db.selectFrom('dav_locks').select('account_id').execute()).toEqual([{ account_id: bob }]);
  });

  it("a blocked account's locks stand in nobody's way; its account's deletion removes them", async () => {
    const { db, repo, service, alice, bob, context, now } = await setup();
    await take(repo, now(), { path: '/영업부/a.txt', accountId: bob });
    const target = [{ path: '/영업부/a.txt', deep: false }];
    expect((await refusal(service.assertCanWrite(context(alice), target, etagOf))).status).toBe(423);
    await db.updateTable('users').set({ status: 'BLOCK' }).where('id', '=', bob).execute();
    await service.assertCanWrite(context(alice), target, etagOf);
    expect(await take(repo, now(), { path: '/영업부/a.txt', accountId: alice })).not.toBeNull();
    await db.deleteFrom('users').where('id', '=', bob).execute();
    expect(await db.selectFrom('dav_locks').select('account_id').execute()).toEqual([{ account_id: alice }]);
  });

  it('lockdiscovery shows the locks reaching a path; releaseUnder drops those on and under it only', async () => {
    const { repo, service, alice, now } = await setup();
    const above = (await take(repo, now(), {
      path: '/영업부',
      accountId: alice,
      scope: 'shared',
      ownerXml: '<D:owner><D:href>mailto:a@x</D:href></D:owner>',
    }))!;
    const own = (await take(repo, now(), { path: '/영업부/a.txt', accountId: alice, scope: 'shared', depth: '0' }))!;
    const xml = await service.lockDiscovery('/영업부/a.txt', hrefOf);
    expect(xml).toContain(above.token);
    expect(xml).toContain(own.token);
    expect(xml).toContain('<D:owner><D:href>mailto:a@x</D:href></D:owner>');
    expect(xml).toContain('<D:timeout>Second-60</D:timeout>');
    expect(xml).toContain(`<D:lockroot><D:href>${hrefOf('/영업부')}</D:href></D:lockroot>`);
    // The same for many paths at once (PROPFIND depth 1), in one query per root.
    const paths = ['/', '/영업부', '/영업부/a.txt', '/영업부/b.txt', '/기획부/x'];
    const all = await service.lockDiscoveryAll(paths, hrefOf);
    // A path no lock covers is absent (its lockdiscovery is the empty one).
    const empty = '<D:lockdiscovery xmlns:D="DAV:"></D:lockdiscovery>';
    for (const p of paths) expect(all.get(p) ?? empty).toBe(await service.lockDiscovery(p, hrefOf));
    expect(all.has('/기획부/x')).toBe(false);
    expect(all.get('/영업부/b.txt')).toContain(above.token);
    expect(all.get('/영업부/b.txt')).not.toContain(own.token);
    await service.releaseUnder('/영업부/a.txt');
    const after = await service.lockDiscovery('/영업부/a.txt', hrefOf);
    expect(after).toContain(above.token);
    expect(after).not.toContain(own.token);
    await service.releaseUnder('/영업');
    expect(await service.lockDiscovery('/영업부/a.txt', hrefOf)).toContain(above.token);
  });

  it('20 exclusive locks asked at once (through two connection pools on PostgreSQL): exactly one is granted', async () => {
    const [first, second] = await twoHandles(dialect);
    const owner = await account(first, 'burst@example.com');
    const repos = [new DavLocksRepo(first), new DavLocksRepo(second)];
    const now = Date.now();
    const results = await Promise.all(Array.from({ length: 20 }, (_, i) => take(repos[i % 2]!, now, { path: '/영업부/burst.txt', accountId: owner })));
    expect(results.filter((r) => r !== null)).toHaveLength(1);
    expect(await first.selectFrom('dav_locks').select('token').execute()).toHaveLength(1);
    // A folder lock and a member lock asked at once: never both.
    const mixed = await Promise.all(
      Array.from({ length: 20 }, (_, i) => take(repos[i % 2]!, now, { path: i % 2 ? '/기획부' : `/기획부/f${i}.txt`, accountId: owner })),
    );
    const granted = mixed.filter((r): r is DavLock => r !== null);
    expect(granted.length).toBeGreaterThan(0);
    expect(granted.some((l) => l.path === '/기획부') && granted.some((l) => l.path !== '/기획부')).toBe(false);
  });
});
