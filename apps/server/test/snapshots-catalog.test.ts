// The snapshot catalog is written to a file while the live store is walked (format 2: a
// header line, one row a line, owners and roots on the last line) and the parent's is
// read from a file. A run with nothing changed keeps the parent's catalog bytes; an
// incremental run after changes writes exactly the rows a full walk writes; a parent
// whose catalog is of the earlier format (one JSON object) still serves as parent and
// restores; the run's catalog files are gone however it ends.
import fs from 'node:fs';
import path from 'node:path';
import { apiCalls, SNAPSHOT_CATALOG_NAME } from '@bogwan/contracts';
import { backup, LocalBackend, Lock, readSnapshotFile, Repository, type SourceEntry } from '@bogwan/vault';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { createFolder, createPlan, createRoot, finishedRun, REPO_PASSWORD, repoDir, restoreItems, runPlan } from './snapshots-helpers.js';
import { bytesOf, fetchBytes, sha256, upload } from './transfer-helpers.js';

type Row = [string, 0 | 1, number, string, number, string, string?, number?];
interface Parsed {
  version: number;
  createdAt: string;
  roots: { name: string; backend: string }[];
  owners: { id: string; email: string }[];
  rows: Row[];
}

/** A stored catalog of either format, read whole. */
function parseCatalog(data: Buffer): Parsed {
  const text = data.toString('utf8');
  if (!text.startsWith('{"version":2,')) return JSON.parse(text) as Parsed;
  const [header, ...lines] = text.split('\n').filter((l) => l.length > 0);
  const trailer = JSON.parse(lines.pop()!) as Pick<Parsed, 'roots' | 'owners'>;
  return { ...(JSON.parse(header!) as { version: number; createdAt: string }), ...trailer, rows: lines.map((l) => JSON.parse(l) as Row) };
}

/** The rows with owners by email, sorted: what a catalog says, whatever order it was written in. */
function rowsOf(catalog: Parsed): string[] {
  return catalog.rows.map((row) => JSON.stringify([...row.slice(0, 4), catalog.owners[row[4]]?.email ?? null, ...row.slice(5)])).sort();
}

describeEachDialect('snapshot catalogs written and read in pieces on $dialect', (dialect) => {
  let server: TestServer;
  let token: string;
  let location: string;
  let planId: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    token = (await setupMaster(server)).token;
    const owner = await signInAs(server, 'owner@example.com', 'ADMIN');
    await createRoot(server, token, 'Team');
    await createRoot(server, token, 'Other');
    for (const [parent, name] of [
      ['/Team', 'a'],
      ['/Team', 'b'],
      ['/Team/a', 'deep'],
      ['/Team/b', 'sub'],
      ['/Other', 'x'],
    ])
      await createFolder(server, token, parent!, name!);
    for (const [folder, name, size] of [
      ['/Team', 'top.txt', 300],
      ['/Team/a', 'a1.txt', 1000],
      ['/Team/a/deep', 'a2.txt', 2000],
      ['/Team/b', 'b1.txt', 1500],
      ['/Team/b/sub', 'b2.txt', 700],
      ['/Other/x', 'x1.txt', 400],
    ] as const)
      expect((await upload(server, name === 'b1.txt' ? owner.token : token, folder, name, bytesOf(size, `${folder}/${name}`))).status).toBe(200);
    location = repoDir();
    planId = (await createPlan(server, token, location))._id;
  });
  afterAll(async () => {
    await server?.close();
  });

  const withRepo = async <T>(work: (repo: Repository) => Promise<T>, at = location): Promise<T> => {
    const backend = new LocalBackend(at);
    try {
      const repo = await Repository.open(backend, REPO_PASSWORD);
      await repo.loadIndex();
      return await work(repo);
    } finally {
      await backend.close();
    }
  };
  const storedCatalog = (snapshotId: string, at = location) => withRepo((repo) => readSnapshotFile(repo, snapshotId, SNAPSHOT_CATALOG_NAME), at);
  const workDir = () => path.join(server.dataDir, 'snapshot-work');
  const expectNoWorkFiles = (when: string) => {
    const left = fs.existsSync(workDir()) ? fs.readdirSync(workDir(), { recursive: true }) : [];
    expect(left, when).toEqual([]);
  };
  const download = async (p: string) => {
    const res = await fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(p)}`);
    expect(res.status, p).toBe(200);
    return sha256(res.bytes);
  };

  it('writes format 2; a run with nothing changed keeps the parent catalog bytes; its files are gone after each run', async () => {
    const first = await runPlan(server, token, planId);
    expect(first).toMatchObject({ status: 'completed', files: 6 });
    expectNoWorkFiles('after the first run');
    const data = await storedCatalog(first.snapshotId!);
    expect(data.toString('utf8').split('\n')[0]).toMatch(/^\{"version":2,"createdAt":"[^"]+"\}$/);
    const parsed = parseCatalog(data);
    expect(parsed.roots.map((r) => r.name)).toEqual(['Other', 'Team']);
    expect(parsed.owners.map((o) => o.email).sort()).toEqual(['master@example.com', 'owner@example.com'].sort());
    expect(parsed.rows).toHaveLength(6 + 5 + 2);

    const second = await runPlan(server, token, planId);
    expect(second).toMatchObject({ status: 'completed', files: 6 });
    expect(second.snapshotId).not.toBe(first.snapshotId);
    expectNoWorkFiles('after the no-change run');
    // The very bytes of the parent's catalog (its time included): no new catalog stored.
    expect((await storedCatalog(second.snapshotId!)).equals(data)).toBe(true);
  });

  it('an incremental run after changes in some folders writes exactly the rows a full walk writes', async () => {
    await runPlan(server, token, planId);
    expect((await upload(server, token, '/Team/a/deep', 'new.txt', bytesOf(1234, 'new'))).status).toBe(200);
    expect((await call(server, apiCalls.file_rename, { token, body: { path: '/Team', name: 'top.txt', newName: 'top2.txt' } })).status).toBe(200);
    const incremental = await runPlan(server, token, planId);
    expect(incremental).toMatchObject({ status: 'completed', files: 7 });
    // Another repository, a full run: every folder walked.
    const fullRepo = repoDir();
    const fullPlan = (await createPlan(server, token, fullRepo, { name: 'full', backupType: 'full' }))._id;
    const full = await runPlan(server, token, fullPlan);
    expect(full).toMatchObject({ status: 'completed', files: 7 });
    const fromIncremental = parseCatalog(await storedCatalog(incremental.snapshotId!));
    const fromFull = parseCatalog(await storedCatalog(full.snapshotId!, fullRepo));
    expect(rowsOf(fromIncremental)).toEqual(rowsOf(fromFull));
    expect(fromIncremental.roots).toEqual(fromFull.roots);
    expect(rowsOf(fromIncremental).some((r) => r.startsWith('["Team/a/deep/new.txt"'))).toBe(true);
    expectNoWorkFiles('after the incremental run');
  });

  it('a parent whose catalog is of format 1 serves as parent, is browsed and restores', async () => {
    const latest = await runPlan(server, token, planId);
    const v2 = parseCatalog(await storedCatalog(latest.snapshotId!));
    const v1 = Buffer.from(JSON.stringify({ version: 1, createdAt: v2.createdAt, roots: v2.roots, owners: v2.owners, rows: v2.rows }));
    // A snapshot as an earlier version made it: the same trees, the catalog as one JSON object.
    const oldId = await withRepo(async (repo) => {
      const lock = await Lock.acquire(repo.backend, 'backup', false);
      repo.holdWith(lock);
      try {
        async function* source(): AsyncGenerator<SourceEntry> {
          for (const root of v2.roots) {
            const counts = { files: 0, dirs: 0, size: 0 };
            yield { path: root.name, type: 'dir', mode: 0o755, mtimeMs: 0, size: 0, unchanged: { ...counts, contents: async function* () {} } };
          }
          yield {
            path: SNAPSHOT_CATALOG_NAME,
            type: 'file',
            mode: 0o644,
            mtimeMs: Date.now(),
            size: v1.length,
            open: async function* () {
              yield v1;
            },
          };
        }
        const result = await backup(repo, source(), {
          paths: v2.roots.map((r) => r.name).sort(),
          parent: latest.snapshotId!,
          host: `bogwan-plan-${planId}`,
          threads: 1,
        });
        return result.id;
      } finally {
        await lock.release();
      }
    });
    expect((await storedCatalog(oldId)).toString('utf8').startsWith('{"version":1,')).toBe(true);
    await server.app.db.updateTable('snapshot_runs').set({ vault_snapshot_id: oldId }).where('id', '=', latest._id).execute();

    // Browsed and restored from the format 1 catalog.
    const items = await call(server, apiCalls.snapshot_items, { token, params: { id: latest._id }, query: { path: 'Team/b' } });
    expect(items.body.items.map((i) => [i.name, i.owner])).toEqual([
      ['sub', 'master@example.com'],
      ['b1.txt', 'owner@example.com'],
    ]);
    const before = await download('/Team/b/b1.txt');
    expect((await call(server, apiCalls.file_trash, { token, body: { paths: ['/Team/b/b1.txt'] } })).status).toBe(200);
    expect(await restoreItems(server, token, { runId: latest._id, items: ['Team/b/b1.txt'], target: { kind: 'original' } })).toMatchObject({
      status: 'completed',
      failed: 0,
    });
    expect(await download('/Team/b/b1.txt')).toBe(before);

    // As parent: the next run reads it, takes its unchanged folders and writes format 2.
    expect((await upload(server, token, '/Other/x', 'x2.txt', bytesOf(10, 'x2'))).status).toBe(200);
    const next = await runPlan(server, token, planId);
    expect(next).toMatchObject({ status: 'completed', files: 8 });
    const written = await storedCatalog(next.snapshotId!);
    expect(written.toString('utf8').startsWith('{"version":2,')).toBe(true);
    const fullPlan = (await createPlan(server, token, repoDir(), { name: 'full again', backupType: 'full' }))._id;
    const full = await runPlan(server, token, fullPlan);
    expect(full).toMatchObject({ status: 'completed', files: 8 });
    const listed = async (runId: string, p: string) =>
      (await call(server, apiCalls.snapshot_items, { token, params: { id: runId }, query: { path: p } })).body.items;
    for (const p of ['', 'Team', 'Team/a', 'Team/a/deep', 'Team/b', 'Team/b/sub', 'Other', 'Other/x'])
      expect(await listed(next._id, p), p).toEqual(await listed(full._id, p));
    expectNoWorkFiles('after a run on a format 1 parent');
  });

  it('leaves no catalog files after a failed or a canceled run', async () => {
    // A new file whose blob is gone from the disk: the run must read it, and fails.
    expect((await upload(server, token, '/Team/a', 'fresh.bin', bytesOf(5000, 'fresh'))).status).toBe(200);
    const row = await server.app.db.selectFrom('nodes').select('blob_key').where('name', '=', 'fresh.bin').executeTakeFirstOrThrow();
    const blob = path.join(server.dataDir, 'blobs', row.blob_key!);
    const saved = fs.readFileSync(blob);
    fs.rmSync(blob);
    try {
      expect(await runPlan(server, token, planId)).toMatchObject({ status: 'failure', error: 'snapshot_source_missing' });
      expectNoWorkFiles('after a failed run');
    } finally {
      fs.writeFileSync(blob, saved);
    }
    const started = await call(server, apiCalls.snapshot_run, { token, params: { id: planId } });
    expect(started.status).toBe(202);
    expect((await call(server, apiCalls.snapshot_cancel, { token, params: { id: started.body._id } })).status).toBe(200);
    expect((await finishedRun(server, token, started.body._id)).status).toBe('canceled');
    expectNoWorkFiles('after a canceled run');
    // Left behind by a process that stopped: removed by the next run.
    fs.mkdirSync(path.join(workDir(), 'gone-run'), { recursive: true });
    fs.writeFileSync(path.join(workDir(), 'gone-run', 'catalog'), 'x');
    expect(await runPlan(server, token, planId)).toMatchObject({ status: 'completed' });
    expectNoWorkFiles('after a run that found leftovers');
  });
});
