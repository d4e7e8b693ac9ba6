// Scale benchmark: an installation of 100,000 and of 1,000,000 files in 10,000 folders (rows
// written in bulk, every file's small blob on disk) on SQLite and PostgreSQL, measured through
// the built server's HTTP API: start-up, listing a 100,000-entry folder (first and last page),
// tree expansion, keyword search (a name, a content word, a common word), usage figures, the
// trash listing, server memory, and a snapshot with nothing changed. Each figure is printed
// with its growth from the smallest to the largest scale and against a baseline of the same
// run: the same question asked straight of the database (search: a substring scan without
// index), restic for the snapshot. Not a test: prints ratios.
//
// The server is built from `--commit` (default HEAD) in a directory of its own (see build.ts),
// or `--server` names a built main.js.
//
//   nice -n 10 npx tsx bench/scale/run.ts [--files 100000,1000000] [--only sqlite|postgres] [--runs 50]
//     [--json FILE] [--commit REV | --server PATH/main.js] [--no-snapshot | --snapshot-max FILES] [--blobs DIR]
//     [--no-restic] [--explain] [--keep]
import { execFileSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createTestDatabase, postgresReachable } from '../../apps/server/test/postgres.js';
import { type DirectDb, directQueries, hasRestic, openDirect, resticBackups } from './baselines.js';
import { blobList, linkBlobs, writeBlobs } from './blobs.js';
import { buildAt } from './build.js';
import { explainAll } from './explain.js';
import { BIG_FOLDER, DEPTS, ROOT_NAME, TEAMS_PER_DEPT, fileCounts } from './installation.js';
import { loadPostgres } from './load-postgres.js';
import { loadSqlite } from './load-sqlite.js';
import { SEARCHES, measureCalls, productCalls, searchHits, snapshotTwice } from './measure.js';
import { printTable } from './report.js';
import { type Timing, api, memoryOf, msSince, repo, startServer, stopServer, timeCalls } from './server.js';

const args = process.argv.slice(2);
const valueOf = (name: string) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const SCALES = (valueOf('files') ?? '100000,1000000')
  .split(',')
  .map(Number)
  .sort((a, b) => a - b);
const RUNS = Number(valueOf('runs') ?? 50);
const ONLY = valueOf('only');
const JSON_FILE = valueOf('json');
/** The largest scale whose snapshot is measured (a first snapshot of 1M files takes long); blobs are written for it. */
const SNAPSHOT_MAX = args.includes('--no-snapshot') ? 0 : Number(valueOf('snapshot-max') ?? Infinity);
/** Where the blobs are written; kept after the run when given, so another run reuses them. */
const BLOBS = valueOf('blobs');
/** Keeps the installations, databases and repositories after the run (to look at, or to run the server on again). */
const KEEP = args.includes('--keep');
const RESTIC = !args.includes('--no-restic') && hasRestic();
let serverMain = valueOf('server');
const ACCOUNT = { name: '벤치', email: 'bench@example.com', password: 'Bogwan!2026' };
const log = (...m: unknown[]) => console.log(`[${new Date().toISOString().slice(11, 19)}]`, ...m);

type Dialect = 'sqlite' | 'postgres';
export type ScaleResult = Record<string, unknown> & { files: number; calls: Record<string, Timing>; direct: Record<string, Timing> };

async function benchOne(dialect: Dialect, files: number, work: string, blobDir: string): Promise<ScaleResult> {
  const dataDir = fs.mkdtempSync(path.join(work, `data-${dialect}-`));
  const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
  try {
    // First start: schema, the first account, the root folder; then an empty restart as the start-up baseline.
    let server = await startServer(serverMain, dataDir, database?.url);
    const setupToken = fs.readFileSync(path.join(dataDir, 'setup-token'), 'utf8').trim();
    const setup = await api<{ user: { _id: string } }>(server.url, 'POST', '/api/auth/setup', undefined, { token: setupToken, ...ACCOUNT });
    const signIn = async () =>
      (await api<{ token: string }>(server.url, 'POST', '/api/auth/login', undefined, { email: ACCOUNT.email, password: ACCOUNT.password })).token;
    const root = await api<{ _id: string }>(server.url, 'POST', '/api/file', await signIn(), { name: ROOT_NAME, path: '/' });
    await stopServer(server);
    server = await startServer(serverMain, dataDir, database?.url);
    const emptyStartupMs = server.startupMs;
    const emptyMemory = memoryOf(server.child.pid!);
    await stopServer(server);

    const owner = { rootId: root._id, ownerId: setup.user._id, now: new Date().toISOString() };
    const t0 = process.hrtime.bigint();
    const loaded = dialect === 'sqlite' ? loadSqlite(dataDir, owner, files) : await loadPostgres(database!.url, owner, files);
    const loadSeconds = msSince(t0) / 1000;
    linkBlobs(dataDir, blobDir);
    log(`${dialect} ${files}: ${fileCounts(files).total} file rows loaded in ${loadSeconds.toFixed(1)} s`);

    server = await startServer(serverMain, dataDir, database?.url);
    const startupMs = server.startupMs;
    const token = await signIn();
    const hits = await searchHits(server.url, token);
    const calls = await measureCalls(server.url, token, files, RUNS);
    const memoryAfterCalls = memoryOf(server.child.pid!);
    log(
      `${dialect} ${files}: start-up ${startupMs.toFixed(0)} ms, list p99 ${calls.listFirst!.p99.toFixed(1)} / ${calls.listDeep!.p99.toFixed(1)} ms, RSS ${memoryAfterCalls.rssMiB.toFixed(0)} MiB`,
    );
    let snapshot;
    if (files <= SNAPSHOT_MAX) {
      snapshot = await snapshotTwice(server.url, token, path.join(work, `repo-${dialect}-${files}`));
      log(`${dialect} ${files}: snapshot ${snapshot.first.seconds.toFixed(1)} s, no change ${snapshot.second.seconds.toFixed(1)} s`);
    }
    const memoryAfterSnapshot = memoryOf(server.child.pid!);
    await stopServer(server);

    // The baselines, straight from the database the server has just let go of.
    const along = [root._id, loaded.folderIds[42]!, loaded.folderIds[DEPTS + 42 * TEAMS_PER_DEPT + 7]!];
    const ids = { root: root._id, big: loaded.folderIds[BIG_FOLDER]!, along };
    const direct = await measureDirect(dialect, database?.url ?? dataDir, ids, files);
    let plans;
    if (args.includes('--explain')) {
      const db = await openDirect(dialect, database?.url ?? dataDir);
      plans = await explainAll(dialect, db, ids).finally(() => db.close());
    }
    return {
      files,
      rows: fileCounts(files),
      loadSeconds,
      usageBytes: loaded.usage,
      emptyStartupMs,
      emptyMemory,
      startupMs,
      hits,
      calls,
      direct,
      memoryAfterCalls,
      memoryAfterSnapshot,
      snapshot,
      plans,
    };
  } finally {
    if (KEEP) log(`kept: data ${dataDir}${database ? ` (database ${database.url})` : ''}`);
    else {
      await database?.drop();
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
  }
}

/** The direct queries, fewer runs (a scan without index takes seconds). */
async function measureDirect(dialect: Dialect, target: string, ids: { root: string; big: string; along: string[] }, files: number) {
  const db: DirectDb = await openDirect(dialect, target);
  const q = directQueries(dialect, ids);
  const slow = Math.max(5, Math.floor(RUNS / 5));
  const lastPage = productCalls('', '', files).lastPage;
  try {
    const out: Record<string, Timing> = {
      listFirst: await timeCalls(() => q.listFirst(db), RUNS),
      listDeep: await timeCalls(() => q.listDeep(lastPage)(db), RUNS),
      tree: await timeCalls(() => q.tree(db), RUNS),
      rootUsage: await timeCalls(() => q.usage(db), slow),
      trash: await timeCalls(() => q.trash(db), slow),
    };
    for (const [label, keyword] of Object.entries(SEARCHES)) out[`search_${label}`] = await timeCalls(() => q.search(keyword)(db), slow);
    return out;
  } finally {
    await db.close();
  }
}

const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-bench-scale-'));
const results: Record<string, unknown> = {
  when: new Date().toISOString(),
  runs: RUNS,
  machine: `${os.cpus().length} cores, ${os.cpus()[0]?.model}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB`,
  load: os.loadavg(),
};
try {
  if (!serverMain) {
    const commit = execFileSync('git', ['-C', repo, 'rev-parse', valueOf('commit') ?? 'HEAD'], { encoding: 'utf8' }).trim();
    log(`building the server at ${commit}`);
    serverMain = buildAt(path.join(work, 'build'), commit);
    results.commit = commit;
  }
  results.server = serverMain;
  const dialects: Dialect[] = [];
  if (ONLY !== 'postgres') dialects.push('sqlite');
  if (ONLY !== 'sqlite') {
    const unreachable = await postgresReachable();
    if (unreachable === null) dialects.push('postgres');
    else log(`postgres: not reachable (${unreachable}), skipped`);
  }
  for (const dialect of dialects) results[dialect] = [];
  const restic: Record<number, unknown> = {};
  results.restic = restic;
  // Blobs for the largest scale whose snapshot is measured (the others read none).
  const blobDir = BLOBS ?? path.join(work, 'blobs');
  const snapshotted = SCALES.filter((files) => files <= SNAPSHOT_MAX);
  if (snapshotted.length > 0) {
    const t0 = process.hrtime.bigint();
    const written = writeBlobs(blobDir, snapshotted.at(-1)!);
    log(`${written} blobs written in ${(msSince(t0) / 1000).toFixed(1)} s`);
    results.blobSeconds = msSince(t0) / 1000;
  }
  for (const files of SCALES) {
    for (const dialect of dialects) {
      (results[dialect] as ScaleResult[]).push(await benchOne(dialect, files, work, blobDir));
      if (JSON_FILE) fs.writeFileSync(JSON_FILE, `${JSON.stringify(results, null, 2)}\n`);
    }
    if (files <= SNAPSHOT_MAX && RESTIC) {
      // The directory itself when it holds this scale's blobs alone: restic given 100k single
      // files (`--files-from`) took 4× longer for its no-change run than for its first.
      const target = files === snapshotted.at(-1) ? { dir: blobDir } : { list: blobList(blobDir, files, path.join(work, `blobs-${files}.txt`)) };
      restic[files] = resticBackups(target, path.join(work, `restic-${files}`));
      log(`${files}: restic`, restic[files]);
    }
    if (JSON_FILE) fs.writeFileSync(JSON_FILE, `${JSON.stringify(results, null, 2)}\n`);
  }
  results.loadAfter = os.loadavg();
  if (JSON_FILE) fs.writeFileSync(JSON_FILE, `${JSON.stringify(results, null, 2)}\n`);
  printTable(results, dialects);
} finally {
  if (KEEP) log(`kept: ${work}`);
  else fs.rmSync(work, { recursive: true, force: true });
}
