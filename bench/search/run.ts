// Search benchmark: 100,000 indexed files on SQLite and PostgreSQL; keyword query p50/p99
// through the real route (auth, permission filter, paths) against a naive substring scan
// of the same rows (no trigram index) in the same run; indexing throughput of the real
// background indexer against reading and decoding the same blobs. Not a test: prints ratios.
//
//   nice -n 10 npx tsx bench/search/run.ts [--files 100000] [--indexed 3000] [--runs 30] [--only sqlite|postgres]
import { createHash, randomInt } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { Readable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import { sql } from 'kysely';
import { buildApp } from '../../apps/server/src/app.js';
import { loadConfig } from '../../apps/server/src/config.js';
import { newId } from '../../apps/server/src/ids.js';
import { blankNode } from '../../apps/server/src/modules/files/file-tree.js';
import { isSqlite } from '../../apps/server/src/modules/search/dialect.js';
import { extractText } from '../../apps/server/src/modules/search/extract/index.js';
import { SearchRepo } from '../../apps/server/src/modules/search/search.repo.js';
import { newLocalUser } from '../../apps/server/src/modules/users/new-user.js';
import { blobKeyOf } from '../../apps/server/src/storage/blob-store.js';
import { createTestDatabase, postgresReachable } from '../../apps/server/test/postgres.js';

const here = path.dirname(fileURLToPath(import.meta.url));
const args = process.argv.slice(2);
const option = (name: string, fallback: number) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const FILES = option('files', 100_000);
const INDEXED = option('indexed', 3000);
const RUNS = option('runs', 30);

const KO = [
  '보고서',
  '회의록',
  '사업계획',
  '예산',
  '결재',
  '누리',
  '발사체',
  '계약서',
  '인사',
  '평가',
  '분기',
  '매출',
  '고객',
  '제안서',
  '점검',
  '안전',
  '교육',
  '연구',
  '개발',
  '설계',
  '품질',
  '재고',
  '물류',
  '공지',
  '일정',
];
const EN = [
  'budget',
  'report',
  'invoice',
  'contract',
  'design',
  'review',
  'minutes',
  'quarter',
  'sales',
  'customer',
  'plan',
  'draft',
  'final',
  'backup',
  'server',
  'network',
  'policy',
  'audit',
  'summary',
  'project',
];
const WORDS = [...KO, ...EN];
const word = () => WORDS[randomInt(WORDS.length)]!;
const sentence = (n: number) => Array.from({ length: n }, word).join(' ');
/** A word no generated text holds, planted in a few files. */
const RARE = '잔지바르zanzibar';

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!;
};
const ms = (t0: bigint) => Number(process.hrtime.bigint() - t0) / 1e6;
const log = (...m: unknown[]) => console.log(...m);

const QUERIES = [
  { label: '2 Korean syllables', keyword: '누리' },
  { label: '2 ASCII letters (no match)', keyword: 'qz' },
  { label: 'Korean word', keyword: '사업계획' },
  { label: 'English word', keyword: 'budget' },
  { label: 'rare word (few matches)', keyword: RARE },
  { label: 'no match', keyword: '없는검색어xyz' },
];

async function benchDialect(dialect: 'sqlite' | 'postgres') {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-bench-search-'));
  const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
  const config = loadConfig({
    BOGWAN_DATA_DIR: dataDir,
    BOGWAN_WEB_DIR: path.join(dataDir, 'no-web'),
    LOG_LEVEL: 'silent',
    ...(database ? { DATABASE_URL: database.url } : {}),
  });
  const app = await buildApp(config);
  await app.ready();
  const db = app.db;
  const out: Record<string, unknown> = { dialect, files: FILES };
  try {
    // Accounts: the searching user is an administrator (reads everything).
    const admin = await newLocalUser({ name: '벤치', email: 'bench@example.com', password: 'Bogwan!2026', role: 'ADMIN' });
    await db.insertInto('users').values(admin).execute();
    const session = newId();
    const now = new Date().toISOString();
    await db
      .insertInto('sessions')
      .values({ id: session, user_id: admin.id, created_at: now, last_used_at: now, revoked_at: null, ip: '127.0.0.1', user_agent: 'bench' })
      .execute();
    const token = await signedToken(app, admin.id, session);

    // The tree: one root, 100 folders, FILES files with text rows (the indexer's own rows).
    const root = { ...blankNode(null, now), name: '벤치', owner_id: admin.id };
    await db.insertInto('nodes').values(root).execute();
    const folders = Array.from({ length: 100 }, (_, i) => ({ ...blankNode(root, now), name: `${word()} ${i}`, owner_id: admin.id }));
    await db.insertInto('nodes').values(folders).execute();
    const t0 = process.hrtime.bigint();
    const repo = new SearchRepo(db);
    const BATCH = 200;
    for (let i = 0; i < FILES; i += BATCH) {
      const nodes = [];
      const texts = [];
      for (let j = i; j < Math.min(FILES, i + BATCH); j += 1) {
        const hash = createHash('sha256').update(`bench-${j}`).digest('hex');
        const body = `${sentence(120)}${j % 20_000 === 7 ? ` ${RARE} ` : ''} ${sentence(40)}`;
        nodes.push({
          ...blankNode(folders[j % folders.length]!, now),
          name: `${word()}-${word()}-${j}.txt`,
          folder: 0,
          size: body.length,
          content_hash: hash,
          blob_key: blobKeyOf(hash),
          owner_id: admin.id,
        });
        texts.push({ hash, status: 'indexed' as const, body, truncated: false });
      }
      await db.insertInto('nodes').values(nodes).execute();
      // The indexer's own write (texts and their character pairs, one transaction).
      await repo.saveTexts(texts);
    }
    out.loadSeconds = ms(t0) / 1000;
    // PostgreSQL: what autovacuum does after a bulk load (statistics, and the GIN indexes'
    // pending lists merged); queries right after a load also scan those lists (see RESULTS.md).
    if (!isSqlite(db)) await sql`vacuum analyze`.execute(db);
    log(`${dialect}: ${FILES} files loaded in ${(ms(t0) / 1000).toFixed(1)} s`);

    // Queries through the route, and the naive scan of the same rows as the baseline.
    const queries = [];
    for (const q of QUERIES) {
      const url = `/api/search/keyword?keyword=${encodeURIComponent(q.keyword)}&limit=20`;
      const first = await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
      if (first.statusCode !== 200) throw new Error(`${q.keyword}: ${first.statusCode} ${first.body}`);
      const times: number[] = [];
      for (let r = 0; r < RUNS; r += 1) {
        const t = process.hrtime.bigint();
        await app.inject({ method: 'GET', url, headers: { authorization: `Bearer ${token}` } });
        times.push(ms(t));
      }
      const naive: number[] = [];
      for (let r = 0; r < Math.max(5, Math.floor(RUNS / 3)); r += 1) {
        const t = process.hrtime.bigint();
        await naiveScan(db, q.keyword);
        naive.push(ms(t));
      }
      const row = {
        ...q,
        hits: (JSON.parse(first.body) as unknown[]).length,
        p50: percentile(times, 50),
        p99: percentile(times, 99),
        naiveP50: percentile(naive, 50),
      };
      queries.push(row);
      log(
        `${dialect}: ${q.label.padEnd(28)} hits ${String(row.hits).padStart(2)}  p50 ${row.p50.toFixed(1)} ms  p99 ${row.p99.toFixed(1)} ms  naive scan p50 ${row.naiveP50.toFixed(1)} ms`,
      );
    }
    out.queries = queries;

    // Indexing: INDEXED real text blobs through the background indexer, against reading
    // and decoding the same blobs directly.
    const store = await app.blobStores.local();
    const files = [];
    let bytes = 0;
    for (let i = 0; i < INDEXED; i += 1) {
      const body = Buffer.from(`${sentence(300)}\n`.repeat(3));
      const hash = createHash('sha256').update(body).update(String(i)).digest('hex');
      await store.put(blobKeyOf(hash), Readable.from([body]));
      files.push({ name: `index-${i}.txt`, size: body.length, hash });
      bytes += body.length;
    }
    const tb = process.hrtime.bigint();
    for (const file of files) {
      await extractText(file.name, {
        size: file.size,
        read: async (max) => readAll(await store.get(blobKeyOf(file.hash), { start: 0, end: Math.min(max, file.size) - 1 })),
      });
    }
    const baselineSeconds = ms(tb) / 1000;
    const target = folders[0]!;
    const ti = process.hrtime.bigint();
    for (const file of files) {
      await app.fileTree.addFile(target, { name: file.name, size: file.size, contentHash: file.hash, blobKey: blobKeyOf(file.hash), ownerId: admin.id });
    }
    // The adds alone (each its own committed transaction; the indexer runs alongside).
    const addSeconds = ms(ti) / 1000;
    await app.searchIndex.idle();
    const indexSeconds = ms(ti) / 1000;
    const done = await db
      .selectFrom('search_texts')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where(
        'hash',
        'in',
        files.slice(0, 500).map((f) => f.hash),
      )
      .executeTakeFirstOrThrow();
    if (Number(done.n) !== Math.min(500, files.length)) throw new Error('indexer did not finish');
    out.indexing = {
      files: INDEXED,
      mib: bytes / 1048576,
      seconds: indexSeconds,
      filesPerSecond: INDEXED / indexSeconds,
      addSeconds,
      baselineSeconds,
      baselineFilesPerSecond: INDEXED / baselineSeconds,
    };
    log(
      `${dialect}: indexing ${INDEXED} files (${(bytes / 1048576).toFixed(1)} MiB) in ${indexSeconds.toFixed(1)} s = ${(INDEXED / indexSeconds).toFixed(0)} files/s (add + extract + store + task; the adds alone ${addSeconds.toFixed(1)} s); read+decode alone ${(INDEXED / baselineSeconds).toFixed(0)} files/s`,
    );
  } finally {
    await app.close();
    await database?.drop();
    fs.rmSync(dataDir, { recursive: true, force: true });
  }
  return out;
}

/** The baseline: the same question as a plain substring scan (no trigram index, no permission check). */
async function naiveScan(db: any, keyword: string) {
  const pos = isSqlite(db) ? 'instr' : 'strpos';
  await sql`select n.id from nodes n where ${sql.raw(pos)}(lower(n.name), lower(${keyword})) > 0 and n.trash_key = '' limit 20`.execute(db);
  await sql`select t.hash from search_texts t where ${sql.raw(pos)}(lower(t.body), lower(${keyword})) > 0 limit 20`.execute(db);
}

async function readAll(stream: Readable): Promise<Buffer> {
  const chunks: Buffer[] = [];
  for await (const chunk of stream) chunks.push(chunk as Buffer);
  return Buffer.concat(chunks);
}

async function signedToken(app: Awaited<ReturnType<typeof buildApp>>, userId: string, sessionId: string): Promise<string> {
  // The same token the sign-in call answers, made with the server's own signer.
  const { AccessTokens: Tokens } = await import('../../apps/server/src/modules/auth/access-token.js');
  const { resolveServerSecret } = await import('../../apps/server/src/modules/auth/server-secret.js');
  const tokens = new Tokens(resolveServerSecret(app.config.secret, app.config.dataDir), app.config.accessTokenTtlSeconds);
  return tokens.sign({ sub: userId, sid: sessionId } as never);
}

const results: Record<string, unknown> = { when: new Date().toISOString(), files: FILES, runs: RUNS };
// `--only sqlite|postgres` runs one database and keeps the other's numbers from the last run.
const only = args.includes('--only') ? args[args.indexOf('--only') + 1] : undefined;
const lastRun = path.join(here, 'last-run.json');
if (only && fs.existsSync(lastRun)) Object.assign(results, { ...JSON.parse(fs.readFileSync(lastRun, 'utf8')), when: results.when, files: FILES, runs: RUNS });
if (only !== 'postgres') results.sqlite = await benchDialect('sqlite');
if (only !== 'sqlite') {
  if ((await postgresReachable()) === null) results.postgres = await benchDialect('postgres');
  else log('postgres: not reachable, skipped');
}
fs.writeFileSync(lastRun, `${JSON.stringify(results, null, 2)}\n`);
log(`raw numbers: bench/search/last-run.json`);
