// WebDAV benchmark: rclone `copy` up and down of a tree of small files and of one large
// file through Bogwan's /dav/ against `rclone serve webdav` of a directory on the same disk,
// same machine, same run; PROPFIND depth 1 of a 10,000-entry folder (p50/p99) on both. Not
// a test: prints ratios (Bogwan's speed / rclone serve's, so > 1 is faster).
// Each round copies into a new destination on both servers (baseline first in odd rounds,
// Bogwan first in even ones), each copy after an untimed `sync` of what the copies before it
// left to write, and reads the large file once more into /dev/null (`rclone cat`: the servers'
// streaming without the client's disk); ratios are of the medians. Needs the built server
// (npm run build) and rclone.
//
//   nice -n 10 node bench/dav/run.mjs [--small 1000] [--size-mib 1024] [--entries 10000] [--rounds 3] [--propfinds 100] [--cpu-prof DIR]
//
// `--cpu-prof DIR` writes a CPU profile of Bogwan's server into DIR when it stops.
import { execFile, spawn, spawnSync } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { promisify } from 'node:util';
import { api, createFirstAccount, freePort, insertEntries, median, percentile, startServer } from '../files/harness.mjs';

const run = promisify(execFile);
const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SMALL = option('small', 1000);
const SIZE = option('size-mib', 1024) * 1024 * 1024;
const ENTRIES = option('entries', 10_000);
const ROUNDS = option('rounds', 3);
const PROPFINDS = option('propfinds', 100);
const profileAt = args.indexOf('--cpu-prof');
const PROFILE_DIR = profileAt >= 0 ? path.resolve(args[profileAt + 1]) : undefined;
/** The large file's name (Korean, with a space). */
const LARGE_NAME = '큰 파일.bin';
const ACCOUNT = { name: '벤치', email: 'bench@example.com', password: 'Bench!mark2026' };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-bench-dav-'));
const log = (...m) => console.log(...m);
const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;

if (spawnSync('rclone', ['version']).status !== 0) throw new Error('rclone is needed (apt-get install rclone)');
const rcloneVersion = spawnSync('rclone', ['version']).stdout.toString().split('\n')[0];

/** 1,000 files of 1–64 KiB in 10 folders, Korean names; and one large file. */
function makeSources() {
  const small = path.join(work, 'src-small');
  let bytes = 0;
  for (let i = 0; i < SMALL; i++) {
    const dir = path.join(small, `폴더 ${i % 10}`);
    fs.mkdirSync(dir, { recursive: true });
    const piece = randomBytes(1024 + ((i * 7919) % (63 * 1024)));
    bytes += piece.length;
    fs.writeFileSync(path.join(dir, `문서-${String(i).padStart(4, '0')}.bin`), piece);
  }
  const large = path.join(work, 'src-large');
  fs.mkdirSync(large);
  const out = fs.openSync(path.join(large, LARGE_NAME), 'w');
  for (let written = 0; written < SIZE;) {
    const piece = randomBytes(Math.min(64 * 1024 * 1024, SIZE - written));
    fs.writeSync(out, piece);
    written += piece.length;
  }
  fs.closeSync(out);
  return { small, large, smallBytes: bytes };
}

/** `rclone serve webdav` of a fresh directory, the baseline, with its ENTRIES-file folder `many` made first (it caches listings). */
async function startBaseline() {
  const dir = path.join(work, 'baseline');
  const many = path.join(dir, 'many');
  fs.mkdirSync(many, { recursive: true });
  for (let i = 0; i < ENTRIES; i++) fs.writeFileSync(path.join(many, `file-${String(i).padStart(6, '0')}.txt`), '');
  const port = await freePort();
  const child = spawn('rclone', ['serve', 'webdav', dir, '--addr', `127.0.0.1:${port}`], { stdio: 'ignore' });
  const url = `http://127.0.0.1:${port}/`;
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(url, { method: 'PROPFIND', headers: { Depth: '0' } });
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { dir, url, stop: () => child.kill() };
}

/** Bogwan with an account, a root folder `bench`, an app password; answers rclone's view of it. */
async function startBogwan() {
  const dataDir = path.join(work, 'bogwan');
  fs.mkdirSync(dataDir);
  const server = await startServer(dataDir, { nodeArgs: PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', PROFILE_DIR] : [] });
  await createFirstAccount(server, ACCOUNT);
  const { token, user } = await api(server.url, 'POST', '/api/auth/login', null, { email: ACCOUNT.email, password: ACCOUNT.password });
  await api(server.url, 'POST', '/api/file', token, { name: 'bench', path: '/' });
  const { password } = await api(server.url, 'POST', '/api/auth/app-passwords', token, { name: 'bench', currentPassword: ACCOUNT.password });
  return { ...server, token, user, password, stop: () => server.child.kill() };
}

const remoteEnv = (name, url, user, pass) => ({
  [`RCLONE_CONFIG_${name}_TYPE`]: 'webdav',
  [`RCLONE_CONFIG_${name}_URL`]: url,
  [`RCLONE_CONFIG_${name}_VENDOR`]: 'other',
  ...(user ? { [`RCLONE_CONFIG_${name}_USER`]: user, [`RCLONE_CONFIG_${name}_PASS`]: pass } : {}),
});

/** One timed rclone copy; the same flags for both servers. */
async function timedCopy(env, from, to) {
  // What the copies before this one left unwritten is written first, outside the timing: a
  // copy that follows gigabytes of dirty pages would pay for the earlier copies' writeback
  // (and Bogwan, which syncs each file it stores, for all of it).
  spawnSync('sync');
  const t0 = process.hrtime.bigint();
  await run('rclone', ['copy', '--transfers', '4', '--checkers', '8', from, to], { env, maxBuffer: 64 * 1024 * 1024 });
  return seconds(t0);
}

/** `rclone cat` of one file into /dev/null, in seconds. */
async function timedCat(env, remote) {
  const t0 = process.hrtime.bigint();
  await new Promise((resolve, reject) => {
    const cat = spawn('rclone', ['cat', remote], { env, stdio: ['ignore', 'ignore', 'inherit'] });
    cat.on('error', reject);
    cat.on('exit', (code) => (code === 0 ? resolve() : reject(new Error(`rclone cat ${remote}: exit ${code}`))));
  });
  return seconds(t0);
}

/** PROPFIND depth 1 of `url`, `PROPFINDS` times after 5 unmeasured; p50/p99 in ms. */
async function propfindTimes(url, headers) {
  const once = async () => {
    const t0 = process.hrtime.bigint();
    const res = await fetch(url, { method: 'PROPFIND', headers: { Depth: '1', ...headers } });
    const body = await res.text();
    if (res.status !== 207) throw new Error(`PROPFIND ${url}: ${res.status} ${body.slice(0, 200)}`);
    return { ms: seconds(t0) * 1000, responses: body.split('<D:response>').length - 1 || body.split(':response>').length / 2 - 1 };
  };
  for (let i = 0; i < 5; i++) await once();
  const times = [];
  let responses = 0;
  for (let i = 0; i < PROPFINDS; i++) {
    const r = await once();
    times.push(r.ms);
    responses = r.responses;
  }
  return { p50: percentile(times, 50), p99: percentile(times, 99), responses };
}

const results = { when: new Date().toISOString(), rcloneVersion, small: SMALL, sizeMiB: SIZE / 1024 / 1024, entries: ENTRIES, rounds: ROUNDS };
let baseline;
let bogwan;
try {
  log('making sources in', work);
  const sources = makeSources();
  baseline = await startBaseline();
  bogwan = await startBogwan();
  const { stdout: obscured } = await run('rclone', ['obscure', bogwan.password]);
  const env = {
    ...process.env,
    RCLONE_CONFIG: path.join(work, 'rclone.conf'),
    ...remoteEnv('BASE', baseline.url),
    ...remoteEnv('BOGWAN', `${bogwan.url}/dav/`, ACCOUNT.email, obscured.trim()),
  };
  fs.writeFileSync(env.RCLONE_CONFIG, '');
  const kinds = () => ({ smallUp: [], largeUp: [], smallDown: [], largeDown: [], largeCat: [] });
  const measured = { base: kinds(), bogwan: kinds() };
  const targets = { base: 'BASE:', bogwan: 'BOGWAN:bench/' };
  for (let round = 1; round <= ROUNDS; round++) {
    // Baseline first in odd rounds, Bogwan first in even ones: on a virtual disk, a copy written
    // later in a run is slower whatever the server (measured: 1 GiB down 1.5 → 4.5 s over six
    // alternating downloads from both), so a fixed order favours the side that goes first.
    for (const side of round % 2 === 1 ? ['base', 'bogwan'] : ['bogwan', 'base']) {
      const dest = `${targets[side]}round_${round}`;
      measured[side].smallUp.push(await timedCopy(env, sources.small, `${dest}/small`));
      measured[side].largeUp.push(await timedCopy(env, sources.large, `${dest}/large`));
      const down = path.join(work, `down-${side}-${round}`);
      measured[side].smallDown.push(await timedCopy(env, `${dest}/small`, path.join(down, 'small')));
      measured[side].largeDown.push(await timedCopy(env, `${dest}/large`, path.join(down, 'large')));
      // The same download into no disk (`rclone cat` to /dev/null): the servers' streaming alone.
      measured[side].largeCat.push(await timedCat(env, `${dest}/large/${LARGE_NAME}`));
      fs.rmSync(down, { recursive: true, force: true });
      log(`round ${round} ${side}`, Object.fromEntries(Object.entries(measured[side]).map(([k, v]) => [k, `${v.at(-1).toFixed(2)} s`])));
    }
    // Keep the disk from filling up with copies of the large file.
    fs.rmSync(path.join(baseline.dir, `round_${round}`, 'large'), { recursive: true, force: true });
  }
  const med = (side, key) => median(measured[side][key]);
  const rate = (bytes, s) => bytes / 1024 / 1024 / s;
  results.seconds = Object.fromEntries(['base', 'bogwan'].map((side) => [side, Object.fromEntries(Object.keys(measured[side]).map((k) => [k, med(side, k)]))]));
  results.smallFilesPerSecond = {
    base: { up: SMALL / med('base', 'smallUp'), down: SMALL / med('base', 'smallDown') },
    bogwan: { up: SMALL / med('bogwan', 'smallUp'), down: SMALL / med('bogwan', 'smallDown') },
  };
  results.largeMBps = {
    base: { up: rate(SIZE, med('base', 'largeUp')), down: rate(SIZE, med('base', 'largeDown')) },
    bogwan: { up: rate(SIZE, med('bogwan', 'largeUp')), down: rate(SIZE, med('bogwan', 'largeDown')) },
  };
  results.ratios = {
    smallUp: med('base', 'smallUp') / med('bogwan', 'smallUp'),
    smallDown: med('base', 'smallDown') / med('bogwan', 'smallDown'),
    largeUp: med('base', 'largeUp') / med('bogwan', 'largeUp'),
    largeDown: med('base', 'largeDown') / med('bogwan', 'largeDown'),
    largeDownNoDisk: med('base', 'largeCat') / med('bogwan', 'largeCat'),
  };

  // PROPFIND depth 1 of a folder of ENTRIES files: rows inserted into Bogwan's SQLite file, empty files for rclone serve (made at its start).
  await api(bogwan.url, 'POST', '/api/file', bogwan.token, { name: 'many', path: '/bench' });
  const roots = await api(bogwan.url, 'GET', '/api/file/list?path=%2F&limit=100', bogwan.token);
  const rootId = roots.items.find((item) => item.name === 'bench')._id;
  const inBench = await api(bogwan.url, 'GET', '/api/file/list?path=%2Fbench&limit=100', bogwan.token);
  const folderId = inBench.items.find((item) => item.name === 'many')._id;
  await insertEntries(bogwan.dataDir, folderId, rootId, bogwan.user._id, ENTRIES);
  const auth = { Authorization: `Basic ${Buffer.from(`${ACCOUNT.email}:${bogwan.password}`).toString('base64')}` };
  results.propfind = {
    bogwan: await propfindTimes(`${bogwan.url}/dav/bench/many/`, auth),
    base: await propfindTimes(`${baseline.url}many/`, {}),
  };
  log(JSON.stringify(results, null, 2));
} finally {
  baseline?.stop();
  bogwan?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
