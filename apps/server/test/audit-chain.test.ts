import { execFile } from 'node:child_process';
import http from 'node:http';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { promisify } from 'node:util';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { AuditCommands } from '../src/cli/audit-commands.js';
import { AuditRepo } from '../src/modules/audit/audit.repo.js';
import { accountActor } from '../src/modules/audit/audit-context.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { upload } from './transfer-helpers.js';

const SERVER_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

describeEachDialect('audit chain on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let verify: () => ReturnType<AuditCommands['verify']>;
  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    const commands = new AuditCommands(server.app.db, server.dataDir);
    verify = () => commands.verify();
  });
  afterAll(async () => {
    await server?.close();
  });

  const head = async () => Number((await server.app.db.selectFrom('audit_chain').select('seq').executeTakeFirstOrThrow()).seq);

  it('records each of 1,000 concurrent downloads once, in one unbroken chain', async () => {
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } })).status).toBe(200);
    expect((await upload(server, master.token, '/Team', 'report.txt', Buffer.from('quarterly numbers'))).status).toBe(200);
    const before = await head();
    // All 1,000 are sent at once, over at most 200 connections (more than the listen
    // backlog of 511 at once makes a loaded machine reset some before they are read).
    const agent = new http.Agent({ keepAlive: true, maxSockets: 200 });
    const download = () =>
      new Promise<number>((resolve, reject) => {
        const req = http.get(
          `${server.url}/api/file/download?path=${encodeURIComponent('/Team/report.txt')}`,
          { agent, headers: { authorization: `Bearer ${master.token}` } },
          (res) => {
            res.resume();
            res.on('end', () => resolve(res.statusCode!));
            res.on('error', reject);
          },
        );
        req.on('error', reject);
      });
    const answers = await Promise.all(Array.from({ length: 1000 }, download)).finally(() => agent.destroy());
    expect(answers.filter((s) => s === 200)).toHaveLength(1000);
    const downloads = () =>
      server.app.db
        .selectFrom('audit_records')
        .select((eb) => eb.fn.countAll<number | string>().as('n'))
        .where('seq', '>', before)
        .where('action', 'in', ['file.download', 'legacy'])
        .executeTakeFirstOrThrow()
        .then((r) => Number(r.n));
    // A download is recorded when its bytes have gone out, which may follow the answer by a moment.
    await vi.waitFor(async () => expect(await downloads()).toBe(1000), { timeout: 30_000, interval: 200 });
    const seqs = (await server.app.db.selectFrom('audit_records').select('seq').orderBy('seq').execute()).map((r) => Number(r.seq));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('keeps one chain under 1,000 concurrent appends, in and out of transactions', async () => {
    const before = await head();
    const actor = accountActor({ id: master.user._id, name: '관리자', email: master.user.email });
    await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        i % 2 === 0
          ? server.app.audit.record({ action: 'file.view', actor, target: { kind: 'node', id: `n${i}`, path: `/Team/${i}.txt` } })
          : server.app.db
              .transaction()
              .execute((trx) => server.app.audit.record({ action: 'file.view', actor, target: { kind: 'node', id: `n${i}`, path: `/Team/${i}.txt` } }, trx)),
      ),
    );
    expect(await head()).toBe(before + 1000);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('commits appends of one turn together, each caller answered with its own records, one failing append failing alone', async () => {
    const repo = new AuditRepo(server.app.db);
    const record = (i: number) => ({
      actor_kind: 'account' as const,
      actor_id: master.user._id,
      actor_account_id: master.user._id,
      actor_label: null,
      action: 'file.view' as const,
      outcome: 'allowed' as const,
      reason: null,
      target_kind: 'node' as const,
      target_id: `g${i}`,
      target_path: `/Team/group-${i}.txt`,
      target_label: null,
      params: '{}',
      ip: null,
      user_agent: null,
    });
    const before = await head();
    const seqs = await Promise.all(Array.from({ length: 30 }, (_, i) => repo.append(i % 3 === 0 ? [record(i), record(i + 100)] : [record(i)])));
    // Every caller got its own records' places, in the order it gave them, and no place twice.
    const places = seqs.flat();
    expect(new Set(places).size).toBe(40);
    expect(places.every((seq) => seq > before && seq <= before + 40)).toBe(true);
    for (const [i, own] of seqs.entries()) {
      const rows = await server.app.db.selectFrom('audit_records').select(['seq', 'target_id']).where('seq', 'in', own).orderBy('seq').execute();
      expect(rows.map((row) => row.target_id)).toEqual(i % 3 === 0 ? [`g${i}`, `g${i + 100}`] : [`g${i}`]);
    }
    // A record the database refuses (no action) fails its own append only.
    const broken = { ...record(999), action: null as unknown as 'file.view' };
    const mixed = await Promise.allSettled([repo.append([record(200)]), repo.append([broken]), repo.append([record(201)])]);
    expect(mixed.map((r) => r.status)).toEqual(['fulfilled', 'rejected', 'fulfilled']);
    expect(await head()).toBe(before + 42);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('never times a record before the one ahead of it (another process whose clock runs ahead)', async () => {
    const ahead = new Date(Date.now() + 60 * 60 * 1000).toISOString();
    const actor = accountActor({ id: master.user._id, name: '관리자', email: master.user.email });
    const target = { kind: 'node' as const, id: 'n-clock', path: '/Team/clock.txt' };
    await new AuditRepo(server.app.db).append([
      {
        actor_kind: 'account',
        actor_id: master.user._id,
        actor_account_id: master.user._id,
        actor_label: null,
        action: 'file.view',
        outcome: 'allowed',
        reason: null,
        target_kind: 'node',
        target_id: 'n-clock',
        target_path: '/Team/clock.txt',
        target_label: null,
        params: '{}',
        ip: null,
        user_agent: null,
        at: ahead,
      },
    ]);
    await server.app.audit.record({ action: 'file.view', actor, target });
    const latest = await server.app.db.selectFrom('audit_records').select('at').orderBy('seq', 'desc').executeTakeFirstOrThrow();
    expect(latest.at).toBe(ahead);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('writes nothing when the action’s transaction rolls back, and fails the action when its record cannot be written', async () => {
    const before = await head();
    await expect(
      server.app.db.transaction().execute(async (trx) => {
        await server.app.audit.record({ action: 'file.rename', target: { kind: 'node', id: 'x', path: '/Team/x' } }, trx);
        throw new Error('the action failed after recording');
      }),
    ).rejects.toThrow('the action failed');
    expect(await head()).toBe(before);
    // A record that cannot be written (here: the chain head is gone) fails the transaction it was given.
    await expect(
      server.app.db.transaction().execute(async (trx) => {
        await trx.insertInto('settings').values({ key: 'audit-test', value: '1', updated_at: new Date().toISOString() }).execute();
        await trx.deleteFrom('audit_chain').execute();
        await server.app.audit.record({ action: 'settings.change' }, trx);
      }),
    ).rejects.toThrow();
    expect(await server.app.db.selectFrom('settings').select('key').where('key', '=', 'audit-test').executeTakeFirst()).toBeUndefined();
    expect(await head()).toBe(before);
    expect(await verify()).toMatchObject({ ok: true });
  });

  it('records the client address, user agent and signed-in actor of the request', async () => {
    await call(server, apiCalls.event_list, { token: master.token, headers: { 'user-agent': 'Audit-Test/1.0' } });
    const res = await call(server, apiCalls.event_export, { token: master.token, query: { format: 'jsonl' }, headers: { 'user-agent': 'Audit-Test/1.0' } });
    expect(res.status).toBe(200);
    const last = await server.app.db.selectFrom('audit_records').selectAll().orderBy('seq', 'desc').limit(1).executeTakeFirstOrThrow();
    expect(last).toMatchObject({
      action: 'audit.export',
      actor_kind: 'account',
      actor_account_id: master.user._id,
      actor_label: `관리자 <${master.user.email}>`,
      ip: '127.0.0.1',
      user_agent: 'Audit-Test/1.0',
    });
  });

  it('keeps oversized params as valid, shortened JSON', async () => {
    await server.app.audit.record({ action: 'settings.change', params: { note: 'x'.repeat(10_000), count: 3 } });
    await server.app.audit.record({ action: 'settings.change', params: Object.fromEntries(Array.from({ length: 2000 }, (_, i) => [`key${i}`, i])) });
    const [many, long] = await server.app.db.selectFrom('audit_records').select('params').orderBy('seq', 'desc').limit(2).execute();
    const shortened = JSON.parse(long!.params);
    expect(shortened.count).toBe(3);
    expect(shortened.note.length).toBeLessThan(4000);
    expect(JSON.parse(many!.params)).toEqual({ truncated: true });
  });

  it('bogwan audit verify answers OK, then names a record whose params were edited, with exit code 1', async () => {
    const env = {
      ...process.env,
      BOGWAN_DATA_DIR: server.dataDir,
      LOG_LEVEL: 'silent',
      ...(server.config.database.dialect === 'postgres' ? { DATABASE_URL: server.config.database.url } : {}),
    };
    const run = (args: string[]) =>
      promisify(execFile)(process.execPath, ['--import', 'tsx', 'src/cli/admin.ts', ...args], { cwd: SERVER_DIR, env }).then(
        (r) => ({ code: 0, out: r.stdout, err: r.stderr }),
        (e: { code: number; stdout: string; stderr: string }) => ({ code: e.code, out: e.stdout, err: e.stderr }),
      );
    const ok = await run(['audit', 'verify']);
    expect(ok).toMatchObject({ code: 0 });
    expect(ok.out).toMatch(/^audit trail OK: \d+ records/m);
    const victim = await server.app.db.selectFrom('audit_records').select(['seq', 'at', 'params']).where('seq', '=', 7).executeTakeFirstOrThrow();
    await server.app.db.updateTable('audit_records').set({ params: '{"message":"nothing happened"}' }).where('seq', '=', 7).execute();
    const broken = await run(['audit', 'verify']);
    expect(broken.code).toBe(1);
    expect(broken.err).toContain(`audit trail BROKEN at record 7 (${victim.at}): its content does not match its hash`);
    await server.app.db.updateTable('audit_records').set({ params: victim.params }).where('seq', '=', 7).execute();
    expect((await run(['audit', 'verify'])).code).toBe(0);
  });
});
