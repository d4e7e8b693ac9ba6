#!/usr/bin/env node
// The snapshot of the live store against restic, in the same run: an installation with
// many small files in folders and a few large ones (rows in the server's SQLite file,
// blobs really in its blob directory), a first snapshot through the API, then snapshots
// with nothing changed, timed; restic backs up the same blob directory twice. Not part
// of `npm test`. Run from the repository root after `npm run build` in apps/server and
// packages/vault, and `apt-get install -y restic`:
//
//   node bench/vault/live.mjs
//
// Environment:
//   BENCH_DIR      work directory (default /tmp/bogwan-live-bench; removed at the end)
//   BENCH_BUILDS   builds to compare, `label=dir,…` where dir holds apps/server/dist and
//                  resolves @bogwan/vault from its node_modules (default: this checkout)
//   BENCH_SMALL    number of small files (default 50000), spread over BENCH_FOLDERS folders (default 100)
//   BENCH_BIG_MB   size of each of the 3 large files in MiB (default 64)
//   BENCH_REPEAT   no-change runs timed per tool (default 3; the median is reported)
//   BENCH_CHANGES  files replaced (new content) before one extra "few changes" run (default 10)
//   BENCH_PROF=1   start the server with --cpu-prof (profiles land in BENCH_DIR/prof-<label>, kept)
import { spawnSync } from 'node:child_process';
import { createCipheriv, createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { api, createFirstAccount, median, repo, startServer as startProductServer } from '../files/harness.mjs';

const BENCH = process.env.BENCH_DIR ?? '/tmp/bogwan-live-bench';
const SMALL = Number(process.env.BENCH_SMALL ?? 50_000);
const FOLDERS = Number(process.env.BENCH_FOLDERS ?? 100);
const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 64);
const REPEAT = Number(process.env.BENCH_REPEAT ?? 3);
const CHANGES = Number(process.env.BENCH_CHANGES ?? 10);
const PROF = process.env.BENCH_PROF === '1';
const BUILDS = (process.env.BENCH_BUILDS ?? `current=${repo}`).split(',').map((pair) => {
  const [label, dir] = pair.split('=');
  return { label, dir: path.resolve(dir) };
});
const CLOCK_TICKS = 100;

/** Deterministic bytes: AES-128-CTR keystream of a labelled seed. */
function bytesOf(label, length) {
  const key = createHash('sha256').update(`live ${label}`).digest();
  return createCipheriv('aes-128-ctr', key.subarray(0, 16), key.subarray(16, 32)).update(Buffer.alloc(length));
}

const sha256 = (data) => createHash('sha256').update(data).digest('hex');
const blobKeyOf = (hash) => `${hash.slice(0, 2)}/${hash.slice(2, 4)}/${hash}`;

/** User + system CPU seconds of a process so far. */
function cpuOf(pid) {
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / CLOCK_TICKS;
}

/** The build's server on `dataDir`, answering (with a CPU profile per build under `BENCH_PROF`). */
function startServer(build, dataDir) {
  const nodeArgs = PROF ? ['--cpu-prof', `--cpu-prof-dir=${path.join(BENCH, `prof-${build.label}`)}`] : [];
  return startProductServer(dataDir, { nodeArgs, script: path.join(build.dir, 'apps/server/dist/main.js') });
}

async function stopServer(server) {
  const exited = new Promise((resolve) => server.child.once('exit', resolve));
  server.child.kill('SIGTERM');
  await exited;
}

/** Writes a blob file into the server's blob directory; answers its hash. */
function putBlob(blobs, data) {
  const hash = sha256(data);
  const file = path.join(blobs, blobKeyOf(hash));
  fs.mkdirSync(path.dirname(file), { recursive: true });
  fs.writeFileSync(file, data);
  return hash;
}

/** The file rows and their blobs: SMALL small files over the folders, 3 large files in the root. */
async function populate(server, token, user) {
  await api(server.url, 'POST', '/api/file', token, { name: 'Bench', path: '/', backend: 'server' });
  for (let f = 0; f < FOLDERS; f++) await api(server.url, 'POST', '/api/file', token, { name: `folder_${String(f).padStart(3, '0')}`, path: '/Bench' });
  const root = (await api(server.url, 'GET', '/api/file/root', token)).find((r) => r.name === 'Bench');
  const folders = [];
  for (let skip = 0; skip < FOLDERS; skip += 100) {
    const page = await api(server.url, 'GET', `/api/file/list?path=${encodeURIComponent('/Bench')}&skip=${skip}&limit=100`, token);
    folders.push(...page.items.filter((i) => i.folder));
  }
  const blobs = path.join(server.dataDir, 'blobs');
  const { default: Database } = await import(path.join(repo, 'node_modules/better-sqlite3/lib/index.js'));
  const db = new Database(path.join(server.dataDir, 'bogwan.sqlite'));
  db.pragma('busy_timeout = 10000');
  const now = new Date().toISOString();
  const insert = db.prepare(`insert into nodes (id, parent_id, root_id, name, folder, size, mtime, content_hash, blob_key, backend, owner_id,
    description, lock, volume_limit, usage_bytes, trash_key, trashed_at, trashed_by, original_parent_id, created_at, updated_at)
    values (?, ?, ?, ?, 0, ?, ?, ?, ?, 'server', ?, '', 0, null, 0, '', null, null, null, ?, ?)`);
  const rows = [];
  const all = bytesOf('small files', SMALL * 4096);
  for (let i = 0; i < SMALL; i++) {
    const size = 256 + ((i * 7919) % 3840);
    const data = all.subarray(i * 4096, i * 4096 + size);
    const hash = putBlob(blobs, data);
    rows.push([
      randomUUID(),
      folders[i % folders.length]._id,
      root._id,
      `file-${String(i).padStart(6, '0')}.txt`,
      size,
      now,
      hash,
      blobKeyOf(hash),
      user._id,
      now,
      now,
    ]);
  }
  for (let b = 0; b < 3; b++) {
    const data = bytesOf(`big ${b}`, BIG_MB * 1024 * 1024);
    const hash = putBlob(blobs, data);
    rows.push([randomUUID(), root._id, root._id, `big-${b}.bin`, data.length, now, hash, blobKeyOf(hash), user._id, now, now]);
  }
  db.transaction(() => {
    for (const row of rows) insert.run(...row);
  })();
  db.close();
  return { root, folders, rows };
}

/**
 * Starts a run now and waits for it: wall seconds (the run's own start and finish times,
 * so the polling interval does not count), the server's CPU seconds (polls included: a
 * few light calls a second), the run.
 */
async function timedRun(server, token, planId) {
  const cpu0 = cpuOf(server.child.pid);
  const started = await api(server.url, 'POST', `/api/snapshot/plan/${planId}/run`, token);
  for (;;) {
    await new Promise((r) => setTimeout(r, 200));
    const runs = await api(server.url, 'GET', '/api/snapshot/run?limit=20', token);
    const run = runs.items.find((r) => r._id === started._id);
    if (run && run.status !== 'running') {
      const cpu = cpuOf(server.child.pid) - cpu0;
      if (run.status !== 'completed') throw new Error(`run ${run._id}: ${run.status} ${run.error}`);
      return { wall: (Date.parse(run.finishedAt) - Date.parse(run.startedAt)) / 1000, cpu, run };
    }
  }
}

/** Replaces the content of `count` small files through the API (upload over an existing name). */
async function changeFiles(server, token, folders, count) {
  for (let i = 0; i < count; i++) {
    const folder = folders[i % folders.length];
    const name = `file-${String(i).padStart(6, '0')}.txt`;
    const data = bytesOf(`changed ${i} ${Date.now()}`, 1000);
    const form = new FormData();
    const fields = {
      fileName: name,
      path: `/Bench/${folder.name}`,
      chunkIndex: '0',
      totalChunks: '1',
      isLastChunk: 'true',
      fileSize: String(data.length),
      onConflict: 'replace',
    };
    for (const [key, value] of Object.entries(fields)) form.append(key, value);
    form.append('file', new Blob([data]), 'blob');
    const res = await fetch(`${server.url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
    if (!res.ok) return { changed: i, error: `${res.status} ${await res.text()}` };
  }
  return { changed: count };
}

function timeCommand(cmd, args, env) {
  const t0 = performance.now();
  const res = spawnSync('/usr/bin/time', ['-f', '%U %S', cmd, ...args], { env, encoding: 'utf8', maxBuffer: 64 * 1024 * 1024 });
  const wall = (performance.now() - t0) / 1000;
  if (res.status !== 0) throw new Error(`${cmd} ${args.join(' ')}: ${res.stderr}`);
  const [user, sys] = res.stderr.trim().split('\n').at(-1).split(' ').map(Number);
  return { wall, cpu: user + sys };
}

async function benchBuild(build) {
  const work = path.join(BENCH, build.label);
  fs.rmSync(work, { recursive: true, force: true });
  const dataDir = path.join(work, 'data');
  fs.mkdirSync(dataDir, { recursive: true });
  const server = await startServer(build, dataDir);
  try {
    const { token, user } = await createFirstAccount(server, { name: 'bench', email: 'bench@example.com', password: 'Bogwan!2026' });
    const t = performance.now();
    const { folders } = await populate(server, token, user);
    console.error(
      `[${build.label}] populated ${SMALL} small files in ${FOLDERS} folders + 3 × ${BIG_MB} MiB in ${((performance.now() - t) / 1000).toFixed(1)} s`,
    );
    // After the long pause of populating, the client's pooled connection may be one the server is closing: spend it on a health call.
    await fetch(`${server.url}/api/health`).catch(() => {});
    const plan = await api(server.url, 'POST', '/api/snapshot/plan', token, {
      name: 'bench',
      backupType: 'incremental',
      target: { all: true, roots: [] },
      location: { kind: 'local', path: path.join(work, 'repo') },
      password: 'bench password 1',
      schedules: [],
    });
    const first = await timedRun(server, token, plan._id);
    console.error(`[${build.label}] first: ${first.wall.toFixed(2)} s wall, ${first.cpu.toFixed(2)} s CPU, ${first.run.files} files`);
    const again = [];
    for (let i = 0; i < REPEAT; i++) {
      again.push(await timedRun(server, token, plan._id));
      console.error(`[${build.label}] no change: ${again.at(-1).wall.toFixed(3)} s wall, ${again.at(-1).cpu.toFixed(3)} s CPU`);
    }
    const changed = await changeFiles(server, token, folders, CHANGES);
    const few = changed.error ? null : await timedRun(server, token, plan._id);
    if (changed.error) console.error(`[${build.label}] few changes skipped: ${changed.error}`);
    else console.error(`[${build.label}] ${CHANGES} changed: ${few.wall.toFixed(3)} s wall, ${few.cpu.toFixed(3)} s CPU`);
    return { label: build.label, first, again, few, blobs: path.join(dataDir, 'blobs') };
  } finally {
    await stopServer(server);
  }
}

function benchRestic(blobs) {
  const env = {
    ...process.env,
    RESTIC_PASSWORD: 'bench password',
    RESTIC_CACHE_DIR: path.join(BENCH, 'cache-restic'),
    RESTIC_REPOSITORY: path.join(BENCH, 'restic'),
  };
  fs.rmSync(env.RESTIC_REPOSITORY, { recursive: true, force: true });
  spawnSync('restic', ['init'], { env, stdio: 'ignore' });
  const first = timeCommand('restic', ['backup', '--quiet', blobs], env);
  console.error(`[restic] first: ${first.wall.toFixed(2)} s wall, ${first.cpu.toFixed(2)} s CPU`);
  const again = [];
  for (let i = 0; i < REPEAT; i++) {
    again.push(timeCommand('restic', ['backup', '--quiet', blobs], env));
    console.error(`[restic] no change: ${again.at(-1).wall.toFixed(3)} s wall, ${again.at(-1).cpu.toFixed(3)} s CPU`);
  }
  return { first, again };
}

const f3 = (n) => n.toFixed(3);
const results = [];
for (const build of BUILDS) results.push(await benchBuild(build));
const restic = benchRestic(results.at(-1).blobs);
const resticWall = median(restic.again.map((r) => r.wall));
const resticCpu = median(restic.again.map((r) => r.cpu));
const lines = [
  `machine: ${os.cpus()[0]?.model ?? '?'} × ${os.cpus().length}, load average ${os
    .loadavg()
    .map((l) => l.toFixed(2))
    .join(' ')}; ${SMALL} small files in ${FOLDERS} folders + 3 × ${BIG_MB} MiB`,
  '',
  '| run | first s (wall/CPU) | no change s wall (median) | CPU s | wall ratio to restic | CPU ratio | few changes s wall |',
  '|---|---|---|---|---|---|---|',
  `| restic | ${f3(restic.first.wall)} / ${f3(restic.first.cpu)} | ${f3(resticWall)} | ${f3(resticCpu)} | 1 | 1 | – |`,
];
for (const r of results) {
  const wall = median(r.again.map((a) => a.wall));
  const cpu = median(r.again.map((a) => a.cpu));
  lines.push(
    `| ${r.label} | ${f3(r.first.wall)} / ${f3(r.first.cpu)} | ${f3(wall)} | ${f3(cpu)} | ${(wall / resticWall).toFixed(2)}× | ${(cpu / resticCpu).toFixed(2)}× | ${r.few ? f3(r.few.wall) : '–'} |`,
  );
}
console.log(lines.join('\n'));
if (process.env.BENCH_KEEP !== '1') {
  for (const r of results) fs.rmSync(path.dirname(path.dirname(r.blobs)), { recursive: true, force: true });
  fs.rmSync(path.join(BENCH, 'restic'), { recursive: true, force: true });
}
