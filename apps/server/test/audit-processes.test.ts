import fs from 'node:fs';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { type Db, openDb } from '../src/db/index.js';
import { AuditChainRepo } from '../src/modules/audit/audit-chain.repo.js';
import { verifyAuditTrail } from '../src/modules/audit/audit-verify.js';
import { call, describeEachDialect, GOOD_PASSWORD } from './harness.js';
import { type ServerProcess, spawnServer } from './multi-process/cluster.js';
import { createTestDatabase } from './postgres.js';
import { scratchDir } from './scratch-dir.js';

// The chain's lock is the database's, so two server processes appending at once (each its
// own connection pool, or on SQLite its own connection to the one file) keep one chain.

describeEachDialect('audit chain across two server processes on $dialect', (dialect) => {
  let a: ServerProcess;
  let b: ServerProcess;
  let db: Db;
  let dropDatabase: (() => Promise<void>) | undefined;
  let token: string;

  beforeAll(async () => {
    let url: string;
    if (dialect === 'postgres') {
      const database = await createTestDatabase();
      url = database.url;
      dropDatabase = database.drop;
    } else {
      url = `sqlite:${path.join(scratchDir('bogwan-audit-processes-'), 'shared.sqlite')}`;
    }
    const env = { DATABASE_URL: url, BOGWAN_SECRET: 'audit-processes-secret-'.padEnd(48, 'x') };
    a = await spawnServer('audit-a', env);
    const setupToken = fs.readFileSync(path.join(a.dataDir, 'setup-token'), 'utf8').trim();
    const setup = await call(a, apiCalls.setup, {
      body: { token: setupToken, name: '관리자', email: 'master@example.com', password: GOOD_PASSWORD },
    });
    expect(setup.status, setup.text).toBe(200);
    token = setup.body.token;
    // Every process of one installation uses one server storage directory.
    const shared = path.join(scratchDir('bogwan-audit-root-'), 'server-root');
    const storage = await call(a, apiCalls.storage_setting_update, { token, body: { server: { path: shared } } });
    expect(storage.status, storage.text).toBe(200);
    b = await spawnServer('audit-b', env);
    db = openDb(dialect === 'postgres' ? { dialect, url } : { dialect, file: url.slice('sqlite:'.length) });
  }, 300_000);
  afterAll(async () => {
    await Promise.all([a?.stop(), b?.stop()]);
    await db?.destroy();
    await dropDatabase?.();
  });

  it('1,000 recorded requests spread over both processes give 1,000 records in one unbroken chain', async () => {
    const before = Number((await db.selectFrom('audit_chain').select('seq').executeTakeFirstOrThrow()).seq);
    // Each export is recorded (audit.export) before its (here empty) rows are streamed.
    const statuses = await Promise.all(
      Array.from({ length: 1000 }, (_, i) =>
        call(i % 2 ? a : b, apiCalls.event_export, { token, query: { format: 'jsonl', action: 'snapshot.run' } }).then((res) => res.status),
      ),
    );
    expect(statuses.filter((s) => s === 200)).toHaveLength(1000);
    const exports = await db.selectFrom('audit_records').select('seq').where('seq', '>', before).where('action', '=', 'audit.export').orderBy('seq').execute();
    expect(exports).toHaveLength(1000);
    const seqs = (await db.selectFrom('audit_records').select('seq').orderBy('seq').execute()).map((r) => Number(r.seq));
    expect(seqs).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
    expect(await verifyAuditTrail(new AuditChainRepo(db), undefined)).toMatchObject({ ok: true });
  });
});
