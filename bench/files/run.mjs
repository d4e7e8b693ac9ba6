// Files benchmark: upload and download 1 GiB through the chunk API, list a 100,000-entry
// folder, server RSS; each against a bare Node HTTP sink/source on the same disk in the
// same run (and `rclone serve webdav` when installed). Not a test: prints ratios.
// After one unmeasured upload to each, transfers run in rounds (bare, then bogwan for
// uploads, each into a new file after the same page-cache warm-up; an unmeasured
// download, then bare, rclone and bogwan for downloads, whose bytes the client counts and
// drops), each after a garbage collection of this client; ratios are of the medians.
//
//   nice -n 10 node bench/files/run.mjs [--size-mib 1024] [--entries 100000] [--rounds 5] [--skip-build] [--profile DIR]
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
  let uploads = 0;
  let file = path.join(dir, 'blob-0');
  const server = http.createServer(async (req, res) => {
    if (req.method === 'PUT') {
      const target = path.join(dir, `blob-${++uploads}`);
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
  await new Promise((r) => server.listen(port, '127.0.0.1', r));
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
  return { url: `http://127.0.0.1:${port}/`, upload, stop: () => server.close() };
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

async function startServer() {
  // `--profile DIR`: the server writes a CPU profile there when it stops.
  const nodeArgs = args.includes('--profile') ? ['--cpu-prof', `--cpu-prof-dir=${args[args.indexOf('--profile') + 1]}`] : [];
  return startProductServer(path.join(work, 'data'), { env: { BOGWAN_WEB_DIR: path.join(work, 'no-web') }, nodeArgs });
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
  const server = serverPid ? fs.readFileSync(`/proc/${serverPid}/stat`, 'utf8').split(') ')[1].split(' ') : null;
  const own = process.cpuUsage();
  return {
    busy: (user + nice + system + irq + softirq) / tick,
    user: (user + nice) / tick,
    system: system / tick,
    softirq: (irq + softirq) / tick,
    iowait: iowait / tick,
    server: server ? (Number(server[11]) + Number(server[12])) / tick : 0,
    client: (own.user + own.system) / 1e6,
  };
}
let serverPid = 0;

/** Runs a transfer; answers its seconds and the machine's busy core-seconds during it. */
async function measure(transfer) {
  const cpu0 = machineCpu();
  const t0 = process.hrtime.bigint();
  await transfer();
  const s = seconds(t0);
  const cpu1 = machineCpu();
  const cores = Object.fromEntries(Object.keys(cpu1).map((k) => [k, Number(((cpu1[k] - cpu0[k]) / s).toFixed(2))]));
  return { s, busyCores: cores.busy, iowaitCores: cores.iowait, cores };
}

function peakRss(pid) {
  const status = fs.readFileSync(`/proc/${pid}/status`, 'utf8');
  const kb = (key) => Number(new RegExp(`${key}:\\s+(\\d+)`).exec(status)?.[1] ?? 0);
  return { rssMiB: kb('VmRSS') / 1024, peakMiB: kb('VmHWM') / 1024 };
}

async function main() {
  log(`work dir ${work}; ${SIZE / 1024 / 1024} MiB; ${ENTRIES} entries; ${os.cpus().length} cores, ${os.cpus()[0]?.model}`);
  if (!args.includes('--skip-build')) {
    const build = spawnSync('npm', ['run', 'build', '-w', '@bogwan/server'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const source = path.join(work, 'source.bin');
  let t0 = process.hrtime.bigint();
  await makeSource(source);
  log(`source written in ${seconds(t0).toFixed(1)} s`);

  const bare = await startBare();
  const rclone = await startRclone(source);
  results.rcloneVersion = rclone?.version ?? null;
  const server = await startServer();
  serverPid = server.child.pid;
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
    const rounds = [];
    for (let round = 1; round <= ROUNDS; round++) {
      const expected = await stampSource(source, round);
      const name = `one-gib-${round}.bin`;
      const measured = { round };
      await warmPages(SIZE * 1.25);
      const bareUp = await measure(() => bare.upload(source));
      measured.bareUpload = mbps(SIZE, bareUp.s);
      measured.bareUploadCpu = bareUp.cores;
      await warmPages(SIZE * 1.25);
      const up = await measure(() => uploadThroughApi(server.url, token, source, '/Bench', name));
      measured.upload = mbps(SIZE, up.s);
      measured.uploadCpu = up.cores;
      // An unmeasured download goes first: the first read of 1 GiB after a 1 GiB upload ran at
      // about half speed whichever server answered it (seen when downloads went to a file).
      await timedDownload(bare.url, {});
      measured.bareDownload = mbps(SIZE, await timedDownload(bare.url, {}));
      if (rclone) measured.rcloneDownload = mbps(SIZE, await timedDownload(rclone.url, {}));
      const fileUrl = `${server.url}/api/file/download?path=${encodeURIComponent(`/Bench/${name}`)}`;
      const auth = { authorization: `Bearer ${token}` };
      measured.download = mbps(SIZE, await timedDownload(fileUrl, auth));
      if ((await downloadedHash(fileUrl, auth)) !== expected) throw new Error(`round ${round}: the downloaded file differs from the uploaded one`);
      rounds.push(measured);
      log('round', measured);
    }
    const of = (key) => rounds.map((r) => r[key]).filter((v) => v !== undefined);
    results.rounds = rounds;
    results.bare = { uploadMBps: median(of('bareUpload')), downloadMBps: median(of('bareDownload')) };
    results.rclone = rclone ? { downloadMBps: median(of('rcloneDownload')), version: rclone.version } : null;
    results.server = {
      uploadMBps: median(of('upload')),
      downloadMBps: median(of('download')),
      sha256Matches: true,
      rssAfterTransfer: peakRss(server.child.pid),
      rssBefore,
    };
    log('medians', { bare: results.bare, rclone: results.rclone, server: results.server });

    const folder = await api(server.url, 'GET', `/api/file/list?path=${encodeURIComponent('/Bench')}`, token);
    const many = folder.items.find((i) => i.name === 'many');
    const root = (await api(server.url, 'GET', '/api/file/root', token)).find((r) => r.name === 'Bench');
    t0 = process.hrtime.bigint();
    await insertEntries(server.dataDir, many._id, root._id, user._id, ENTRIES);
    log(`inserted ${ENTRIES} rows in ${seconds(t0).toFixed(1)} s`);
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
    results.server.peakRss = peakRss(server.child.pid);
    log('list', results.list, 'rss', results.server.peakRss);
  } finally {
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill();
    await exited;
    bare.stop();
    rclone?.stop();
  }

  results.ratios = {
    uploadVsBare: results.server.uploadMBps / results.bare.uploadMBps,
    downloadVsBare: results.server.downloadMBps / results.bare.downloadMBps,
    downloadVsRclone: results.rclone ? results.server.downloadMBps / results.rclone.downloadMBps : null,
  };
  log('ratios', results.ratios);
  fs.writeFileSync(path.join(repo, 'bench/files/last-run.json'), `${JSON.stringify(results, null, 2)}\n`);
  fs.rmSync(work, { recursive: true, force: true });
}

main().catch((error) => {
  console.error(error);
  fs.rmSync(work, { recursive: true, force: true });
  process.exit(1);
});
