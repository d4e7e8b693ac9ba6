// Files benchmark: upload and download 1 GiB through the chunk API, list a 100,000-entry
// folder, server RSS; each against a bare Node HTTP sink/source on the same disk in the
// same run (and `rclone serve webdav` when installed). Not a test: prints ratios.
// After one unmeasured upload to each, transfers run in rounds (bare, then bogwan for
// uploads, each into a new file after the same page-cache warm-up; an unmeasured
// download, then bare, rclone and bogwan for downloads, whose bytes the client counts and
// drops), each after a garbage collection of this client; ratios are of the medians.
// The bare sink runs in a process of its own, as the product does, so that each server's
// own CPU seconds per GiB uploaded (from /proc/<pid>/stat) can be set side by side: a
// figure that other load on the machine moves far less than the wall-clock rate.
//
// `--busy-core on` keeps one core busy (a child process spinning at normal priority) for
// the whole measured phase; `--busy-core both` uploads in each round without and then with
// it, so both ratios come from one run. `--server-js FILE` starts that bundle instead of
// building apps/server/dist/main.js (to compare two builds with the same script);
// `--entries 0` skips the listing, `--uploads-only` the measured downloads.
//
//   nice -n 10 node bench/files/run.mjs [--size-mib 1024] [--entries 100000] [--rounds 5] [--skip-build] [--profile DIR]
//     [--busy-core off|on|both] [--server-js FILE] [--uploads-only]
import { spawn, spawnSync } from 'node:child_process';
import { createHash, randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { pipeline } from 'node:stream/promises';
import v8 from 'node:v8';
import vm from 'node:vm';
import { api, createFirstAccount, freePort, insertEntries, median, percentile, repo, startServer as startProductServer } from './harness.mjs';

// A collection before each measured transfer, so that one transfer does not pay for the
// garbage of the one before it in this client.
v8.setFlagsFromString('--expose-gc');
const collect = vm.runInNewContext('gc');

/**
 * Writes `bytes` to a scratch file and deletes it before an upload, so that the upload's
 * page cache lands on pages this machine already backs. On a virtual machine that returns
 * free memory to its host (free page reporting), a page written for the first time since
 * it was returned costs several times a normal write (measured here: 1 GiB into such pages
 * takes ~5 CPU-seconds of the kernel's time, into pages a deleted file has just freed
 * ~0.5), and which kind an upload gets depends on what the steps before it freed. Without
 * this the baseline, which ran first, got the pages the previous downloads had freed and
 * the product the returned ones. (Freed anonymous memory does not serve: it goes back to
 * the host at once.) A real server has no returned pages; both uploads start as on one.
 */
async function warmPages(bytes) {
  const scratch = path.join(work, 'scratch');
  const piece = Buffer.alloc(16 * 1024 * 1024, 1);
  const out = fs.openSync(scratch, 'w');
  for (let written = 0; written < bytes; written += piece.length) fs.writeSync(out, piece);
  fs.closeSync(out);
  fs.rmSync(scratch);
  collect();
}

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const SIZE = option('size-mib', 1024) * 1024 * 1024;
const ENTRIES = option('entries', 100_000);
const CHUNK = 10_485_760;
const IN_FLIGHT = 4;
const ROUNDS = option('rounds', 5);
const textOption = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const BUSY = textOption('busy-core', 'off');
if (!['off', 'on', 'both'].includes(BUSY)) throw new Error(`--busy-core ${BUSY}: off, on or both`);
const SERVER_JS = textOption('server-js', undefined);
const UPLOADS_ONLY = args.includes('--uploads-only');
const GIB = 1024 * 1024 * 1024;
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-bench-files-'));
const results = { when: new Date().toISOString() };

const seconds = (t0) => Number(process.hrtime.bigint() - t0) / 1e9;
const mbps = (bytes, s) => bytes / 1024 / 1024 / s;
const log = (...m) => console.log(...m);

async function makeSource(file) {
  const hash = createHash('sha256');
  const out = fs.openSync(file, 'w');
  for (let written = 0; written < SIZE;) {
    const piece = randomBytes(Math.min(64 * 1024 * 1024, SIZE - written));
    hash.update(piece);
    fs.writeSync(out, piece);
    written += piece.length;
  }
  fs.fsyncSync(out);
  fs.closeSync(out);
  return hash.digest('hex');
}

async function sha256File(file) {
  const hash = createHash('sha256');
  await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), hash);
  return hash.digest('hex');
}

// The bare sink's server, run as a process of its own (its CPU is read from /proc like the
// product's): a PUT streamed into a new file (fsync at the end), a GET of the latest one.
const BARE_SERVER = `
const fs = require('node:fs');
const http = require('node:http');
const path = require('node:path');
const { pipeline } = require('node:stream/promises');
const dir = process.argv[1];
let uploads = 0;
let file = path.join(dir, 'blob-0');
const server = http.createServer(async (req, res) => {
  if (req.method === 'PUT') {
    const target = path.join(dir, 'blob-' + ++uploads);
    await pipeline(req, fs.createWriteStream(target, { highWaterMark: 1 << 20 }));
    const handle = await fs.promises.open(target, 'r+');
    await handle.sync();
    await handle.close();
    file = target;
    res.end('ok');
  } else {
    res.setHeader('content-length', fs.statSync(file).size);
    await pipeline(fs.createReadStream(file, { highWaterMark: 1 << 20 }), res);
  }
});
server.listen(Number(process.argv[2]), '127.0.0.1', () => process.send('listening'));
`;

/**
 * The baseline: a PUT streamed to a new file (fsync at the end), a GET streamed from the
 * latest one. Each upload is kept in a file of its own, as the product keeps each uploaded
 * file: rewriting one file would let the sink write into the page cache its own truncation
 * has just freed, which on a machine whose free memory goes back to its host is several
 * times cheaper than the fresh pages every new file needs (see bench/RESULTS.md).
 */
async function startBare() {
  const dir = path.join(work, 'bare');
  fs.mkdirSync(dir);
  const port = await freePort();
  const child = spawn(process.execPath, ['-e', BARE_SERVER, dir, String(port)], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((resolve, reject) => {
    child.once('message', resolve);
    child.once('exit', (code) => reject(new Error(`bare sink exited with code ${code}`)));
  });
  // A connection of its own per upload (`agent: false`): a kept-alive one could be reused
  // just as this server's 5 s keep-alive timeout closes it.
  const upload = (source) =>
    new Promise((resolve, reject) => {
      const req = http.request({ port, host: '127.0.0.1', method: 'PUT', path: '/', agent: false }, (res) => {
        res.resume();
        res.on('end', resolve);
      });
      req.on('error', reject);
      fs.createReadStream(source, { highWaterMark: 1 << 20 }).pipe(req);
    });
  return { url: `http://127.0.0.1:${port}/`, upload, pid: child.pid, stop: () => child.kill() };
}

/**
 * A process spinning on one core at normal priority (nice 0, even when this script runs
 * under `nice`), standing for other work on the machine; answers how to stop it.
 */
function busyCore() {
  const child = spawn(process.execPath, ['-e', 'for (;;) {}'], { stdio: 'ignore' });
  let priority = null;
  try {
    os.setPriority(child.pid, 0);
    priority = os.getPriority(child.pid);
  } catch {
    // Without the right to lower a niceness the spinner keeps this script's.
    priority = os.getPriority(child.pid);
  }
  return {
    priority,
    stop: () =>
      new Promise((resolve) => {
        child.once('exit', resolve);
        child.kill('SIGKILL');
      }),
  };
}

/**
 * GETs `url` and hands each piece of the body to `take`; returns the body's length. The
 * measured downloads only count the bytes: writing them to a file would make the figure
 * depend on the client's page cache, which on this machine costs several times more on
 * pages the host took back (see warmPages) and changed the order of the servers from one
 * round to the next.
 */
async function download(url, headers, take = () => {}) {
  const res = await fetch(url, { headers });
  if (res.status !== 200) throw new Error(`GET ${url}: ${res.status}`);
  let length = 0;
  for await (const piece of res.body) {
    length += piece.length;
    take(piece);
  }
  return length;
}

/** `rclone serve webdav` of a directory holding a copy of the source; null without rclone. */
async function startRclone(source) {
  if (spawnSync('which', ['rclone']).status !== 0) return null;
  const dir = path.join(work, 'rclone');
  fs.mkdirSync(dir);
  fs.copyFileSync(source, path.join(dir, 'blob'));
  const port = await freePort();
  const child = spawn('rclone', ['serve', 'webdav', dir, '--addr', `127.0.0.1:${port}`], { stdio: 'ignore' });
  for (let i = 0; i < 100; i++) {
    try {
      await fetch(`http://127.0.0.1:${port}/`);
      break;
    } catch {
      await new Promise((r) => setTimeout(r, 100));
    }
  }
  return { url: `http://127.0.0.1:${port}/blob`, version: spawnSync('rclone', ['version']).stdout.toString().split('\n')[0], stop: () => child.kill() };
}

/** Seconds one download of the whole file takes. */
async function timedDownload(url, headers) {
  collect();
  const t0 = process.hrtime.bigint();
  const length = await download(url, headers);
  const s = seconds(t0);
  if (length !== SIZE) throw new Error(`GET ${url}: ${length} bytes, expected ${SIZE}`);
  return s;
}

/** The SHA-256 of what `url` serves (an unmeasured download). */
async function downloadedHash(url, headers) {
  const hash = createHash('sha256');
  await download(url, headers, (piece) => hash.update(piece));
  return hash.digest('hex');
}

/** Makes the source of round `round` new content (its first bytes), so no round is stored as a duplicate. Answers its SHA-256. */
async function stampSource(source, round) {
  const fd = fs.openSync(source, 'r+');
  fs.writeSync(fd, Buffer.from(`round ${round} `.padEnd(32, '.')), 0, 32, 0);
  fs.fsyncSync(fd);
  fs.closeSync(fd);
  return sha256File(source);
}

/** Starts the product's bundle (`--server-js`, else the one just built) on a data directory of its own; waits until it answers. */
function startServer() {
  // `--profile DIR`: the server writes a CPU profile there when it stops.
  const nodeArgs = args.includes('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${args[args.indexOf('--profile') + 1]}`] : [];
  const script = path.resolve(SERVER_JS ?? path.join(repo, 'apps/server/dist/main.js'));
  return startProductServer(path.join(work, 'data'), { nodeArgs, script, env: { BOGWAN_WEB_DIR: path.join(work, 'no-web') } });
}

/**
 * One multipart POST written by hand (fields, then the file part) with a known length, as a
 * browser sends it natively; undici's FormData encoder would cost the shared cores more
 * than the server's own work and blur the ratio.
 */
function postMultipart(target, token, fields, bytes) {
  const boundary = `----bogwan${randomUUID()}`;
  const head = Buffer.from(
    Object.entries(fields)
      .map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
      .join('') + `--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="blob"\r\ncontent-type: application/octet-stream\r\n\r\n`,
  );
  const tail = Buffer.from(`\r\n--${boundary}--\r\n`);
  const { hostname, port, pathname } = new URL(target);
  return new Promise((resolve, reject) => {
    const req = http.request(
      {
        hostname,
        port,
        path: pathname,
        method: 'POST',
        agent: uploadAgent,
        headers: {
          authorization: `Bearer ${token}`,
          'content-type': `multipart/form-data; boundary=${boundary}`,
          'content-length': head.length + bytes.length + tail.length,
        },
      },
      (res) => {
        const parts = [];
        res.on('data', (d) => parts.push(d));
        res.on('end', () => resolve({ status: res.statusCode, text: Buffer.concat(parts).toString() }));
        res.on('error', reject);
      },
    );
    req.on('error', reject);
    req.write(head);
    req.write(bytes);
    req.end(tail);
  });
}
const uploadAgent = new http.Agent({ keepAlive: true, maxSockets: IN_FLIGHT });

async function uploadThroughApi(url, token, source, folder, name) {
  const total = Math.ceil(SIZE / CHUNK);
  const handle = await fs.promises.open(source, 'r');
  let next = 0;
  // One buffer per connection, read into again for each chunk (the bare client does not
  // allocate per chunk either); a chunk's request is answered before its buffer is reused.
  const sendOne = async (index, space) => {
    const length = Math.min(CHUNK, SIZE - index * CHUNK);
    const buffer = space.subarray(0, length);
    await handle.read(buffer, 0, length, index * CHUNK);
    const fields = { fileName: name, path: folder, chunkIndex: index, totalChunks: total, isLastChunk: index === total - 1, fileSize: SIZE };
    const res = await postMultipart(`${url}/api/file/upload`, token, fields, buffer);
    const answer = JSON.parse(res.text);
    if (res.status !== 200 && !(res.status === 409 && answer.message === 'upload_incomplete'))
      throw new Error(`chunk ${index}: ${res.status} ${JSON.stringify(answer)}`);
    return answer;
  };
  // The last chunk goes once all others are in, as the web client does.
  const spaces = Array.from({ length: IN_FLIGHT }, () => Buffer.allocUnsafeSlow(CHUNK));
  const workers = spaces.map(async (space) => {
    while (next < total - 1) await sendOne(next++, space);
  });
  await Promise.all(workers);
  const last = await sendOne(total - 1, spaces[0]);
  await handle.close();
  if (!last.complete) throw new Error('upload did not complete');
}

/** The machine's CPU time so far, in core-seconds: busy (user, nice, system, irq, softirq) and waiting for I/O. */
function machineCpu() {
  const [user, nice, system, , iowait, irq, softirq] = fs.readFileSync('/proc/stat', 'utf8').split('\n')[0].trim().split(/\s+/).slice(1).map(Number);
  const tick = 100; // USER_HZ
  const own = process.cpuUsage();
  return {
    busy: (user + nice + system + irq + softirq) / tick,
    user: (user + nice) / tick,
    system: system / tick,
    softirq: (irq + softirq) / tick,
    iowait: iowait / tick,
    server: processCpu(serverPid),
    bareSink: processCpu(barePid),
    client: (own.user + own.system) / 1e6,
  };
}
let serverPid = 0;
let barePid = 0;

/**
 * CPU seconds each thread of a process has used so far, by name and id (`node` is the
 * event loop and any worker thread, `libuv-worker` the file system pool, `V8 …` the
 * collector's helpers), each as `{ user, system }`.
 */
function threadCpu(pid) {
  const out = {};
  for (const tid of fs.readdirSync(`/proc/${pid}/task`)) {
    try {
      const name = fs.readFileSync(`/proc/${pid}/task/${tid}/comm`, 'utf8').trim();
      const fields = fs.readFileSync(`/proc/${pid}/task/${tid}/stat`, 'utf8').split(') ')[1].split(' ');
      const key = tid === String(pid) ? 'event loop' : `${name} ${tid}`;
      out[key] ??= { user: 0, system: 0 };
      out[key].user += Number(fields[11]) / 100;
      out[key].system += Number(fields[12]) / 100;
    } catch {
      // The thread ended meanwhile.
    }
  }
  return out;
}

/** The CPU seconds by thread name used between two `threadCpu` readings (threads gone meanwhile are left out). */
function threadCpuSince(before, after) {
  const round = (v) => Number(v.toFixed(2));
  return Object.fromEntries(
    Object.entries(after).map(([name, t]) => [
      name,
      { user: round(t.user - (before[name]?.user ?? 0)), system: round(t.system - (before[name]?.system ?? 0)) },
    ]),
  );
}

/** CPU seconds (user + system, all its threads) a process has used so far; 0 without one. */
function processCpu(pid) {
  if (!pid) return 0;
  const fields = fs.readFileSync(`/proc/${pid}/stat`, 'utf8').split(') ')[1].split(' ');
  return (Number(fields[11]) + Number(fields[12])) / 100;
}

/** Runs a transfer; answers its seconds, the cores busy during it, and the CPU seconds each process used (`used`). */
async function measure(transfer) {
  const cpu0 = machineCpu();
  const t0 = process.hrtime.bigint();
  await transfer();
  const s = seconds(t0);
  const cpu1 = machineCpu();
  const cores = Object.fromEntries(Object.keys(cpu1).map((k) => [k, Number(((cpu1[k] - cpu0[k]) / s).toFixed(2))]));
  const used = Object.fromEntries(Object.keys(cpu1).map((k) => [k, cpu1[k] - cpu0[k]]));
  return { s, busyCores: cores.busy, iowaitCores: cores.iowait, cores, used };
}

function peakRss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

async function main() {
  log(`work dir ${work}; ${SIZE / 1024 / 1024} MiB; ${ENTRIES} entries; ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  if (!args.includes('--skip-build') && !SERVER_JS) {
    const build = spawnSync('npm', ['run', 'build', '-w', '@bogwan/server'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const source = path.join(work, 'source.bin');
  const t0 = process.hrtime.bigint();
  await makeSource(source);
  log(`source written in ${seconds(t0).toFixed(1)} s`);

  const bare = await startBare();
  // Only the downloads are compared with rclone.
  const rclone = UPLOADS_ONLY ? null : await startRclone(source);
  results.rcloneVersion = rclone?.version ?? null;
  const server = await startServer();
  serverPid = server.child.pid;
  barePid = bare.pid;
  try {
    const { token, user } = await createFirstAccount(server, { name: 'bench', email: 'bench@example.com', password: 'Bogwan!2026' });
    await api(server.url, 'POST', '/api/file', token, { name: 'Bench', path: '/', backend: 'server' });
    await api(server.url, 'POST', '/api/file', token, { name: 'many', path: '/Bench' });
    const rssBefore = peakRss(server.child.pid);

    // One unmeasured upload each before the rounds: the server's first upload after a start
    // ran at 300–370 MB/s against 490–610 for the ones after it (code not yet optimised,
    // young generation still small); the rounds measure the steady state of both.
    await bare.upload(source);
    await uploadThroughApi(server.url, token, source, '/Bench', 'warm-up.bin');
    // The modes each round uploads in: without and/or with one core kept busy.
    const modes = BUSY === 'both' ? ['idle', 'busy'] : [BUSY === 'on' ? 'busy' : 'idle'];
    // `on`: the spinner runs through the whole measured phase; `both`: through each round's busy uploads.
    const wholeRun = BUSY === 'on' ? busyCore() : null;
    if (wholeRun) log(`busy core: a spinner at nice ${wholeRun.priority} for the whole measured phase`);
    const rounds = [];
    try {
      for (let round = 1; round <= ROUNDS; round++) {
        const measured = { round };
        let name = '';
        let expected = '';
        for (const mode of modes) {
          expected = await stampSource(source, `${round} ${mode}`);
          name = `one-gib-${round}-${mode}.bin`;
          const spinner = mode === 'busy' && !wholeRun ? busyCore() : null;
          try {
            await warmPages(SIZE * 1.25);
            const bareThreads0 = threadCpu(barePid);
            const bareUp = await measure(() => bare.upload(source));
            const bareThreads = threadCpuSince(bareThreads0, threadCpu(barePid));
            await warmPages(SIZE * 1.25);
            const threads0 = threadCpu(serverPid);
            const up = await measure(() => uploadThroughApi(server.url, token, source, '/Bench', name));
            const serverThreads = threadCpuSince(threads0, threadCpu(serverPid));
            measured[mode] = {
              bareUpload: mbps(SIZE, bareUp.s),
              upload: mbps(SIZE, up.s),
              bareSinkCpuPerGiB: bareUp.used.bareSink / (SIZE / GIB),
              serverCpuPerGiB: up.used.server / (SIZE / GIB),
              bareUploadCores: bareUp.cores,
              uploadCores: up.cores,
              serverThreads,
              bareThreads,
              spinnerNice: (spinner ?? wholeRun)?.priority,
            };
          } finally {
            await spinner?.stop();
          }
          const fileUrl = `${server.url}/api/file/download?path=${encodeURIComponent(`/Bench/${name}`)}`;
          if ((await downloadedHash(fileUrl, { authorization: `Bearer ${token}` })) !== expected)
            throw new Error(`round ${round} (${mode}): the downloaded file differs from the uploaded one`);
        }
        if (!UPLOADS_ONLY) {
          // An unmeasured download goes first: the first read of 1 GiB after a 1 GiB upload ran at
          // about half speed whichever server answered it (seen when downloads went to a file).
          await timedDownload(bare.url, {});
          measured.bareDownload = mbps(SIZE, await timedDownload(bare.url, {}));
          if (rclone) measured.rcloneDownload = mbps(SIZE, await timedDownload(rclone.url, {}));
          const fileUrl = `${server.url}/api/file/download?path=${encodeURIComponent(`/Bench/${name}`)}`;
          measured.download = mbps(SIZE, await timedDownload(fileUrl, { authorization: `Bearer ${token}` }));
        }
        rounds.push(measured);
        log('round', JSON.stringify(measured));
      }
    } finally {
      await wholeRun?.stop();
    }
    const of = (key) => rounds.map((r) => r[key]).filter((v) => v !== undefined);
    const ofMode = (mode, key) => rounds.map((r) => r[mode][key]);
    results.busyCore = BUSY;
    results.rounds = rounds;
    results.uploads = Object.fromEntries(
      modes.map((mode) => {
        const bareMBps = median(ofMode(mode, 'bareUpload'));
        const MBps = median(ofMode(mode, 'upload'));
        return [
          mode,
          {
            bareMBps,
            MBps,
            ratio: MBps / bareMBps,
            serverCpuPerGiB: median(ofMode(mode, 'serverCpuPerGiB')),
            bareSinkCpuPerGiB: median(ofMode(mode, 'bareSinkCpuPerGiB')),
          },
        ];
      }),
    );
    results.bare = { uploadMBps: results.uploads[modes[0]].bareMBps, downloadMBps: UPLOADS_ONLY ? null : median(of('bareDownload')) };
    results.rclone = rclone && !UPLOADS_ONLY ? { downloadMBps: median(of('rcloneDownload')), version: rclone.version } : null;
    results.server = {
      uploadMBps: results.uploads[modes[0]].MBps,
      downloadMBps: UPLOADS_ONLY ? null : median(of('download')),
      sha256Matches: true,
      rssAfterTransfer: peakRss(server.child.pid),
      rssBefore,
    };
    log('medians', { bare: results.bare, rclone: results.rclone, server: results.server });

    if (ENTRIES > 0) await listing(server, token, user);
    results.server.peakRss = peakRss(server.child.pid);
    log('rss', results.server.peakRss);
  } finally {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill();
    await exited;
    bare.stop();
    rclone?.stop();
  }

  results.ratios = {
    uploadVsBare: results.server.uploadMBps / results.bare.uploadMBps,
    downloadVsBare: UPLOADS_ONLY ? null : results.server.downloadMBps / results.bare.downloadMBps,
    downloadVsRclone: results.rclone ? results.server.downloadMBps / results.rclone.downloadMBps : null,
  };
  log('ratios', results.ratios);
  log('uploads (medians; CPU seconds per GiB of the server process alone, and of the bare sink process alone):');
  for (const [mode, u] of Object.entries(results.uploads))
    log(
      `  ${mode.padEnd(4)}  bare ${u.bareMBps.toFixed(0)} MB/s, product ${u.MBps.toFixed(0)} MB/s, ratio ${u.ratio.toFixed(2)}×; ` +
        `server ${u.serverCpuPerGiB.toFixed(2)} CPU-s/GiB, bare sink ${u.bareSinkCpuPerGiB.toFixed(2)} CPU-s/GiB`,
    );
  fs.writeFileSync(path.join(repo, 'bench/files/last-run.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.rmSync(work, { recursive: true, force: true });
}

/** Inserts ENTRIES rows into one folder and times 300 listing calls of it. */
async function listing(server, token, user) {
  const folder = await api(server.url, 'GET', `/api/file/list?path=${encodeURIComponent('/Bench')}`, token);
  const many = folder.items.find((i) => i.name === 'many');
  const root = (await api(server.url, 'GET', '/api/file/root', token)).find((r) => r.name === 'Bench');
  const t0 = process.hrtime.bigint();
  await insertEntries(server.dataDir, many._id, root._id, user._id, ENTRIES);
  log(`inserted ${ENTRIES} rows in ${seconds(t0).toFixed(1)} s`);
  // The insert holds this process's event loop: a kept-alive socket the server closed meanwhile
  // (its keep-alive timeout) is only noticed on its next use. Unmeasured calls take those.
  for (let i = 0; i < 5; i++)
    if (
      await api(server.url, 'GET', '/api/health', token).then(
        () => true,
        () => false,
      )
    )
      break;
  const timings = [];
  const pages = Math.floor(ENTRIES / 100);
  for (let i = 0; i < 300; i++) {
    const skip = ((i * 331) % pages) * 100;
    const sort = ['name', '-mtime', 'size'][i % 3];
    const t = process.hrtime.bigint();
    const page = await api(server.url, 'GET', `/api/file/list?path=${encodeURIComponent('/Bench/many')}&skip=${skip}&limit=100&sort=${sort}`, token);
    timings.push(seconds(t) * 1000);
    if (i === 0 && page.total !== ENTRIES) throw new Error(`listing total ${page.total}`);
  }
  results.list = { p50ms: percentile(timings, 50), p99ms: percentile(timings, 99), calls: timings.length };
  log('list', results.list);
}

main().catch((error) => {
  console.error(error);
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
