import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type Kysely, Migrator } from 'kysely';
import { afterEach, beforeEach, expect, it } from 'vitest';
import type { Db } from '../src/db/index.js';
import { migrateToLatest } from '../src/db/index.js';
import { migrations } from '../src/db/migrations/index.js';
import { recordHash } from '../src/modules/audit/audit-chain.js';
import { AuditChainRepo } from '../src/modules/audit/audit-chain.repo.js';
import { SYSTEM_ACTOR } from '../src/modules/audit/audit-context.js';
import { digestFilePath, readDigestFile, writeDailyDigests } from '../src/modules/audit/audit-digests.js';
import { AuditRetention } from '../src/modules/audit/audit-retention.js';
import { verifyAuditTrail } from '../src/modules/audit/audit-verify.js';
import { AuditRecorder } from '../src/modules/audit/audit.recorder.js';
import { AuditRepo, type NewAuditRecord } from '../src/modules/audit/audit.repo.js';
import { SettingsRepo } from '../src/modules/settings/settings.repo.js';
import { describeEachDialect, openTestDb } from './harness.js';

const DAY = 86_400_000;
const NOW = new Date('2026-11-27T10:00:00.000Z');
const ago = (ms: number) => new Date(NOW.getTime() - ms).toISOString();

function record(at: string, i: number): NewAuditRecord {
  return {
    at,
    actor_kind: 'account',
    actor_id: 'u1',
    actor_account_id: 'u1',
    actor_label: '김민지 <minji@example.com>',
    action: 'file.download',
    outcome: 'allowed',
    reason: null,
    target_kind: 'node',
    target_id: `n${i}`,
    target_path: `/인사/급여 ${i}.xlsx`,
    target_label: null,
    params: JSON.stringify({ size: i }),
    ip: '10.0.0.7',
    user_agent: 'Mozilla/5.0',
  };
}

describeEachDialect('audit verify, digests and retention on $dialect', (dialect) => {
  let db: Db;
  let close: () => Promise<void>;
  let dir: string;
  let chain: AuditChainRepo;
  let repo: AuditRepo;
  let file: string;
  const verify = () => verifyAuditTrail(chain, file, NOW);

  beforeEach(async () => {
    ({ db, close } = await openTestDb(dialect));
    await migrateToLatest(db);
    dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-audit-'));
    file = digestFilePath(dir);
    chain = new AuditChainRepo(db);
    repo = new AuditRepo(db);
  });
  afterEach(async () => {
    await close?.();
    if (dir) fs.rmSync(dir, { recursive: true, force: true });
  });

  /** Ten records a day over the last `days` days, oldest first. */
  const seed = async (days: number) => {
    for (let d = days; d >= 1; d--) await repo.append(Array.from({ length: 10 }, (_, i) => record(ago(d * DAY + (10 - i) * 60_000), d * 100 + i)));
  };

  it('answers OK for an intact chain, and names a record whose params were edited', async () => {
    await seed(3);
    expect(await verify()).toMatchObject({ ok: true, checked: 30 });
    const victim = await chain.record(12);
    await db.updateTable('audit_records').set({ params: '{"size":0}' }).where('seq', '=', 12).execute();
    expect(await verify()).toMatchObject({
      ok: false,
      broken: { seq: 12, at: victim!.at, reason: expect.stringContaining('content does not match its hash') },
    });
  });

  it('answers OK while the server keeps appending (it checks up to the head it read)', async () => {
    await seed(1);
    const appends = Array.from({ length: 50 }, (_, i) => repo.append([record(ago(0), 1000 + i)]));
    const results = await Promise.all([verify(), verify(), verify(), ...appends]);
    for (const r of results.slice(0, 3)) expect(r).toMatchObject({ ok: true });
    expect(await verify()).toMatchObject({ ok: true, checked: 60 });
  });

  it('appends a batch larger than one statement may bind (SQLite: 32,766 values) in one transaction', async () => {
    const seqs = await repo.append(Array.from({ length: 2500 }, (_, i) => record(ago(DAY), i)));
    expect(seqs).toEqual(Array.from({ length: 2500 }, (_, i) => i + 1));
    expect(await verify()).toMatchObject({ ok: true, checked: 2500 });
  });

  it('names the gap where a middle record was deleted', async () => {
    await seed(2);
    await db.deleteFrom('audit_records').where('seq', '=', 7).execute();
    const result = await verify();
    expect(result).toMatchObject({ ok: false, broken: { seq: 7, reason: expect.stringContaining('record 7 is missing') } });
    expect(result.lines.at(-1)).toMatch(/^audit trail BROKEN at record 7 \(/);
  });

  it('names a record whose stored hash was edited, and records cut off at the end', async () => {
    await seed(2);
    await db
      .updateTable('audit_records')
      .set({ hash: 'f'.repeat(64) })
      .where('seq', '=', 15)
      .execute();
    expect(await verify()).toMatchObject({ ok: false, broken: { seq: 15 } });
    const original = recordHash((await chain.record(15))!);
    await db.updateTable('audit_records').set({ hash: original }).where('seq', '=', 15).execute();
    expect(await verify()).toMatchObject({ ok: true });
    await db.deleteFrom('audit_records').where('seq', '>=', 19).execute();
    expect(await verify()).toMatchObject({ ok: false, broken: { seq: 19, reason: expect.stringContaining('its head names record 20') } });
    const forged = { ...(await chain.record(18))!, seq: 40 };
    await db.insertInto('audit_records').values(forged).execute();
    expect(await verify()).toMatchObject({ ok: false, broken: { seq: 19 } });
    await db
      .updateTable('audit_chain')
      .set({ seq: 18, hash: (await chain.record(18))!.hash })
      .execute();
    expect(await verify()).toMatchObject({ ok: false, broken: { seq: 19, reason: expect.stringContaining('records 19 to 40 lie past the chain head') } });
    await db.deleteFrom('audit_records').where('seq', '=', 40).execute();
    expect(await verify()).toMatchObject({ ok: true });
    await db.deleteFrom('audit_chain').execute();
    expect(await verify()).toMatchObject({ ok: false, lines: ['audit trail BROKEN: the chain head (table audit_chain, row main) is missing: it was deleted'] });
  });

  it('writes one digest per finished day, in the database and the file, and catches a chain rewritten in the database', async () => {
    await seed(3);
    const written = await writeDailyDigests(chain, file, NOW);
    expect(written).toEqual([ago(3 * DAY).slice(0, 10), ago(2 * DAY).slice(0, 10), ago(DAY).slice(0, 10)]);
    expect(await writeDailyDigests(chain, file, NOW)).toEqual([]);
    expect(fs.statSync(file).mode & 0o777).toBe(0o600);
    expect(readDigestFile(file).lines).toHaveLength(3);
    expect(await verify()).toMatchObject({ ok: true, lines: [expect.stringContaining('6 digests checked (3 from the file)')] });

    // Someone with the database rewrites record 5 and every hash after it, the head and the digests.
    await db.updateTable('audit_records').set({ target_path: '/인사/다른 파일.xlsx' }).where('seq', '=', 5).execute();
    let prev = (await chain.record(4))!.hash;
    for (const r of await chain.recordsAfter(4, 1000)) {
      const hash = recordHash({ ...r, prev_hash: prev });
      await db.updateTable('audit_records').set({ prev_hash: prev, hash }).where('seq', '=', r.seq).execute();
      prev = hash;
    }
    await db.updateTable('audit_chain').set({ hash: prev }).execute();
    for (const d of await chain.digests()) {
      await db
        .updateTable('audit_digests')
        .set({ head_hash: (await chain.record(Number(d.last_seq)))!.hash })
        .where('day', '=', d.day)
        .execute();
    }
    // The database alone now agrees with itself; the file written before does not.
    expect(await verifyAuditTrail(chain, undefined)).toMatchObject({ ok: true });
    expect(await verify()).toMatchObject({
      ok: false,
      broken: { seq: 10, at: (await chain.record(10))!.at, reason: expect.stringContaining(`the file digest of ${ago(3 * DAY).slice(0, 10)}`) },
    });
  });

  it('does not digest a day whose records were changed before its digest was written', async () => {
    await seed(3);
    await writeDailyDigests(chain, file, new Date(NOW.getTime() - 2 * DAY));
    expect(readDigestFile(file).lines).toHaveLength(1);
    await db.updateTable('audit_records').set({ params: '{"size":-1}' }).where('seq', '=', 15).execute();
    await expect(writeDailyDigests(chain, file, NOW)).rejects.toThrow('audit trail broken at record 15');
    expect(readDigestFile(file).lines).toHaveLength(1);
    expect(await chain.digests()).toHaveLength(1);
  });

  it('gives every process its own whole copy of the digests: each appends the lines its file lacks', async () => {
    await seed(3);
    const other = path.join(dir, 'other', 'audit', 'digests.log');
    expect(await writeDailyDigests(chain, file, NOW)).toHaveLength(3);
    // The second process digests nothing new (the rows exist) but copies the three lines.
    expect(await writeDailyDigests(chain, other, NOW)).toEqual([]);
    expect(readDigestFile(other).lines).toEqual(readDigestFile(file).lines);
    expect(await verifyAuditTrail(chain, other, NOW)).toMatchObject({ ok: true, warnings: [] });
    await writeDailyDigests(chain, other, NOW);
    expect(readDigestFile(other).lines).toHaveLength(3);
  });

  it('purges records past the retention and stays verifiable from the first kept record', async () => {
    const year = 365 * DAY;
    await repo.append([record(ago(3 * year), 1), record(ago(2 * year + 30 * DAY), 2), record(ago(2 * year - 30 * DAY), 3), record(ago(DAY), 4)]);
    await writeDailyDigests(chain, file, NOW);
    const recorder = new AuditRecorder(repo, { error: () => undefined } as never);
    const retention = new AuditRetention(new SettingsRepo(db), chain, recorder, file);
    expect(await retention.years()).toBe(2);
    expect(await retention.apply(NOW)).toBe(2);
    expect((await db.selectFrom('audit_records').select('seq').orderBy('seq').execute()).map((r) => Number(r.seq))).toEqual([3, 4, 5]);
    const purge = (await chain.record(5))!;
    expect(purge).toMatchObject({
      action: 'audit.purge',
      actor_kind: SYSTEM_ACTOR.kind,
      params: JSON.stringify({ before: AuditRetention.cutoff(NOW, 2), removed: 2, firstKeptSeq: 3 }),
    });
    expect(readDigestFile(file).lines.at(-1)).toMatchObject({ kind: 'anchor', seq: 3, hash: (await chain.record(3))!.prev_hash });
    const result = await verify();
    expect(result).toMatchObject({ ok: true, checked: 3, warnings: [] });
    expect(await retention.apply(NOW)).toBe(0);
    // An edit of the first kept record is still caught, as is a forged anchor.
    await db
      .updateTable('audit_chain')
      .set({ anchor_hash: '0'.repeat(64) })
      .execute();
    expect(await verify()).toMatchObject({ ok: false, broken: { seq: 3 } });
  });

  it('catches the oldest records deleted by hand with the anchor moved to hide it', async () => {
    await seed(3);
    await writeDailyDigests(chain, file, NOW);
    const fifth = (await chain.record(5))!;
    await db.deleteFrom('audit_records').where('seq', '<=', 5).execute();
    await db.updateTable('audit_chain').set({ anchor_seq: 6, anchor_hash: fifth.hash }).execute();
    // The database agrees with itself; the digest file dates record 5 to three days ago.
    expect(await verifyAuditTrail(chain, undefined, NOW)).toMatchObject({ ok: true });
    expect(await verifyAuditTrail(chain, file, NOW)).toMatchObject({
      ok: false,
      broken: { seq: 6, reason: expect.stringContaining('they were deleted, not purged') },
    });
  });

  it('copies the old activity log in as legacy records, chained in time order', async () => {
    await close();
    ({ db, close } = await openTestDb(dialect));
    const names = Object.keys(migrations).sort();
    const before = names[names.indexOf('20261127_1401_audit_trail') - 1]!;
    const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
    expect((await migrator.migrateTo(before)).error).toBeUndefined();
    const user = {
      id: 'u-1',
      name: '박서준',
      email: 'seojun@example.com',
      description: '',
      role: 'USER',
      role_level: 1,
      status: 'ACTIVE',
      approved: 1,
      provider: 'local',
      password_hash: null,
      profile_image: null,
      last_login: null,
      mfa: 'none',
      otp_secret: null,
      otp_pending_secret: null,
      otp_last_step: 0,
      failed_logins: 0,
      locked_until: null,
      created_at: ago(DAY),
      updated_at: ago(DAY),
    };
    await db
      .insertInto('users')
      .values(user as never)
      .execute();
    // The old table, as it was before 20261127_1402 dropped it.
    await (db as unknown as Kysely<any>)
      .insertInto('events')
      .values([
        { id: 'e3', created_at: ago(1000), service: 'file', message: 'Downloaded /A/b.txt', user_id: 'u-1', ip: '10.0.0.1' },
        { id: 'e1', created_at: ago(3000), service: 'auth', message: 'Signed in (password)', user_id: 'u-1', ip: '10.0.0.1' },
        { id: 'e2', created_at: ago(2000), service: 'snapshot', message: 'Snapshot completed', user_id: null, ip: null },
      ])
      .execute();
    await migrateToLatest(db);
    chain = new AuditChainRepo(db);
    const rows = await db.selectFrom('audit_records').selectAll().orderBy('seq').execute();
    expect(rows.map((r) => [Number(r.seq), r.action, r.actor_kind, r.actor_label, JSON.parse(r.params).message])).toEqual([
      [1, 'legacy', 'account', '박서준 <seojun@example.com>', 'Signed in (password)'],
      [2, 'legacy', 'system', null, 'Snapshot completed'],
      [3, 'legacy', 'account', '박서준 <seojun@example.com>', 'Downloaded /A/b.txt'],
    ]);
    expect(await verifyAuditTrail(chain, undefined)).toMatchObject({ ok: true, checked: 3 });
    await expect((db as unknown as Kysely<any>).selectFrom('events').selectAll().execute()).rejects.toThrow();
  });
});
