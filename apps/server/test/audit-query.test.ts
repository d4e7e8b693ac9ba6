import { apiCalls, type AuditList, type CallInput } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { AuditRepo, type NewAuditRecord } from '../src/modules/audit/audit.repo.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

type Session = { user: { _id: string }; token: string };
type EventQuery = NonNullable<CallInput<typeof apiCalls.event_list>['query']>;

/** A record as a module would write it, at a fixed time (after every real one: the chain's times only rise). */
function rec(at: string, actor: string | null, action: string, path: string | null, extra: Partial<NewAuditRecord> = {}): NewAuditRecord {
  return {
    at,
    actor_kind: actor ? 'account' : 'system',
    actor_id: actor,
    actor_account_id: actor,
    actor_label: actor ? `label of ${actor}` : null,
    action,
    outcome: 'allowed',
    reason: null,
    target_kind: path ? 'node' : null,
    target_id: path ? `node:${path}` : null,
    target_path: path,
    target_label: null,
    params: '{}',
    ip: '192.0.2.10',
    user_agent: 'Mozilla/5.0',
    ...extra,
  };
}

const PATHS = [
  '/팀 자료',
  '/팀 자료/100% 완료/a.txt',
  '/팀 자료/100x 완료/b.txt',
  '/팀 자료/a_b/c.txt',
  '/팀 자료/axb/c.txt',
  "/팀 자료/O'Brien/d.txt",
  '/팀 자료/back\\slash/e.txt',
  '/팀 자료2/f.txt',
  '/Docs/x.txt',
  '/docs/y.txt',
];

describeEachDialect('audit queries on $dialect', (dialect) => {
  let server: TestServer;
  let master: Session;
  let minji: Session;
  let seojun: Session;
  const events = (query: EventQuery, s: Session) => call(server, apiCalls.event_list, { token: s.token, query });
  const eventsRefused = (query: EventQuery, s: Session) => callRefused(server, apiCalls.event_list, { token: s.token, query });
  const paths = async (query: EventQuery, s: Session = master) => {
    const res = await events(query, s);
    expect(res.status, res.text).toBe(200);
    return res.body.items.map((i) => i.target?.path ?? null);
  };

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    minji = await signInAs(server, 'minji@example.com');
    seojun = await signInAs(server, 'seojun@example.com');
    await server.app.db.updateTable('users').set({ name: '김민지' }).where('id', '=', minji.user._id).execute();
    await server.app.db.updateTable('users').set({ name: '박서준' }).where('id', '=', seojun.user._id).execute();
    const repo = new AuditRepo(server.app.db);
    const day = (d: number, i = 0) => new Date(Date.UTC(2030, 0, d, 9, i)).toISOString();
    await repo.append(PATHS.map((p, i) => rec(day(1, i), minji.user._id, 'file.download', p)));
    await repo.append([
      rec(day(2), seojun.user._id, 'file.view', '/팀 자료/a_b/c.txt'),
      rec(day(3), seojun.user._id, 'file.download', '/팀 자료/a_b/c.txt', { outcome: 'refused', reason: 'no_access_warning' }),
      rec(day(4), minji.user._id, 'file.rename', '/팀 자료/a_b/c.txt', { params: '{"from":"old.txt"}' }),
      rec(day(5), null, 'snapshot.run', null),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('shows an account its own records only, and administrators everyone’s', async () => {
    const own = await events({ limit: 1000 }, minji);
    expect(own.status).toBe(200);
    expect(own.body.items.length).toBeGreaterThanOrEqual(PATHS.length + 1);
    expect(new Set(own.body.items.map((i) => i.userId))).toEqual(new Set([minji.user._id]));
    expect((await eventsRefused({ userId: seojun.user._id }, minji)).status).toBe(403);
    expect((await eventsRefused({ actor: seojun.user._id }, minji)).status).toBe(403);
    expect((await events({ userId: minji.user._id }, minji)).status).toBe(200);
    const all = await events({ limit: 1000 }, master);
    const actors = new Set(all.body.items.map((i) => i.userId));
    expect(actors).toEqual(new Set([master.user._id, minji.user._id, seojun.user._id, null]));
    const hers = await events({ actor: minji.user._id, limit: 1000 }, master);
    expect(hers.body.items).toEqual(own.body.items);
    // Rows carry names (current and at the time), path, address, agent and the spec's columns.
    expect(hers.body.items[0]).toMatchObject({
      action: 'file.rename',
      actor: { kind: 'account', id: minji.user._id, name: '김민지', email: 'minji@example.com', label: `label of ${minji.user._id}` },
      target: { kind: 'node', path: '/팀 자료/a_b/c.txt' },
      params: { from: 'old.txt' },
      ip: '192.0.2.10',
      userAgent: 'Mozilla/5.0',
      service: 'file',
      message: 'file.rename /팀 자료/a_b/c.txt',
      createdAt: '2030-01-04T09:00:00.000Z',
    });
  });

  it('suggests people by part of a name or e-mail: administrators anyone, others themselves', async () => {
    const names = async (q: string, s: Session) => {
      const res = await call(server, apiCalls.event_people, { token: s.token, query: { q } });
      expect(res.status).toBe(200);
      return res.body.items.map((p) => p.email);
    };
    expect(await names('민지', master)).toEqual(['minji@example.com']);
    expect(await names('EXAMPLE.COM', master)).toHaveLength(3);
    expect(await names('seo', master)).toEqual(['seojun@example.com']);
    expect(await names('%', master)).toEqual([]);
    expect(await names('_', master)).toEqual([]);
    expect(await names('', minji)).toEqual(['minji@example.com']);
    expect(await names('서준', minji)).toEqual([]);
  });

  it('filters by path prefix with %, _, quote, backslash and Korean taken literally, NFD input included', async () => {
    const q = (p: string) => paths({ action: 'file.download', path: p });
    expect(await q('/팀 자료/100% 완료')).toEqual(['/팀 자료/100% 완료/a.txt']);
    expect(await q('/팀 자료/a_b')).toEqual(['/팀 자료/a_b/c.txt', '/팀 자료/a_b/c.txt']);
    expect(await q("/팀 자료/O'Brien/")).toEqual(["/팀 자료/O'Brien/d.txt"]);
    expect(await q('/팀 자료/back\\slash')).toEqual(['/팀 자료/back\\slash/e.txt']);
    expect((await q('/팀 자료')).sort()).toEqual([...PATHS.slice(0, 7), '/팀 자료/a_b/c.txt'].sort());
    expect(await q('/팀 자료'.normalize('NFD'))).toHaveLength(8);
    expect(await q('/Docs')).toEqual(['/Docs/x.txt']);
    expect(await q('/팀 자료/a_b/c.txt')).toEqual(['/팀 자료/a_b/c.txt', '/팀 자료/a_b/c.txt']);
    expect((await eventsRefused({ path: 'relative' }, master)).status).toBe(400);
  });

  it('filters by one or several actions, by outcome and by dates', async () => {
    const actions = async (query: EventQuery) => (await events(query, master)).body.items.map((i) => i.action);
    expect(await actions({ action: 'file.view,file.rename' })).toEqual(['file.rename', 'file.view']);
    expect(await actions({ action: ['file.view', 'snapshot.run'] })).toEqual(['snapshot.run', 'file.view']);
    expect((await eventsRefused({ action: 'file.explode' }, master)).status).toBe(400);
    const refused = await events({ outcome: 'refused' }, master);
    expect(refused.body.items).toHaveLength(1);
    expect(refused.body.items[0]).toMatchObject({ action: 'file.download', outcome: 'refused', reason: 'no_access_warning', actor: { name: '박서준' } });
    expect(await actions({ from: '2030-01-02T00:00:00Z', to: '2030-01-04T00:00:00Z' })).toEqual(['file.download', 'file.view']);
    expect(await actions({ from: '2030-01-02', actor: seojun.user._id, path: '/팀 자료' })).toEqual(['file.download', 'file.view']);
    expect((await eventsRefused({ from: 'yesterday' }, master)).status).toBe(400);
  });

  it('pages by cursor without gaps or repeats, and keeps the spec’s skip and limit', async () => {
    const everything = (await events({ limit: 1000 }, master)).body;
    expect(everything.next).toBeNull();
    const seen: string[] = [];
    let next: string | null = null;
    do {
      const page: AuditList = (await events({ limit: 3, ...(next ? { before: next } : {}) }, master)).body;
      expect(page.total).toBe(everything.total);
      seen.push(...page.items.map((i) => i._id));
      next = page.next;
    } while (next);
    expect(seen).toEqual(everything.items.map((i) => i._id));
    const skipped = (await events({ skip: 2, limit: 3 }, master)).body.items.map((i) => i._id);
    expect(skipped).toEqual(seen.slice(2, 5));
  });

  it('answers the history of one file: everyone’s to administrators, one’s own to others', async () => {
    const params = { nodeId: 'node:/팀 자료/a_b/c.txt' };
    const all = await call(server, apiCalls.event_node, { token: master.token, params });
    expect(all.body.items.map((i) => i.action)).toEqual(['file.rename', 'file.download', 'file.view', 'file.download']);
    const hers = await call(server, apiCalls.event_node, { token: minji.token, params });
    expect(hers.body.items.map((i) => i.action)).toEqual(['file.rename', 'file.download']);
  });

  it('keeps records 2 years by default; administrators set at least 1', async () => {
    expect(await call(server, apiCalls.audit_setting, { token: master.token })).toMatchObject({ status: 200, body: { retentionYears: 2 } });
    expect((await callRefused(server, apiCalls.audit_setting, { token: minji.token })).status).toBe(403);
    const putRefused = (retentionYears: number, s: Session) => callRefused(server, apiCalls.audit_setting_update, { token: s.token, body: { retentionYears } });
    expect((await putRefused(5, minji)).status).toBe(403);
    for (const bad of [0, -1, 1.5, 51]) expect((await putRefused(bad, master)).status, String(bad)).toBe(400);
    // Raw on purpose: years as text, which the contract's type does not allow.
    expect((await server.request('PUT', '/api/setting/audit', { token: master.token, body: { retentionYears: '3' } })).status, '3').toBe(400);
    expect(await call(server, apiCalls.audit_setting_update, { token: master.token, body: { retentionYears: 1 } })).toMatchObject({
      status: 200,
      body: { retentionYears: 1 },
    });
    expect(await call(server, apiCalls.audit_setting, { token: master.token })).toMatchObject({ body: { retentionYears: 1 } });
    const last = await server.app.db.selectFrom('audit_records').selectAll().orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(last).toMatchObject({ action: 'audit.retention_change', actor_account_id: master.user._id, params: JSON.stringify({ from: 2, to: 1 }) });
  });
});
