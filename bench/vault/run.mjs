#!/usr/bin/env node
// Backup engine benchmark: restic, borg and bogwan-vault on the same generated data set,
// in the same run. Not part of `npm test`. Run from the repository root as root (to drop
// the page cache) after `apt-get install -y restic borgbackup time`:
//
//   nice -n 19 ionice -c3 node bench/vault/run.mjs
//
// Environment:
//   BENCH_DIR      work directory (default /tmp/bogwan-bench; removed at the end)
//   BENCH_KEEP=1   keep BENCH_DIR (data set and repositories) afterwards
//   BENCH_TOOLS    comma list of tools to run (default restic,borg,vault); tools left
//                  out are taken from the previous bench/vault/last-run.json, so one
//                  tool can be re-measured against the peers' earlier numbers
//   BENCH_SMALL    number of small files (default 50000)
//   BENCH_BIG_MB   size of each of the 3 large files in MiB (default 250)
//   BENCH_SET      which data set: `random` (the small files and the 3 random large files
//                  of rounds 1–11), `mixed` (3 mixed-content large files: two disk-image-like,
//                  one tar-like) or `both` (default: the two side by side)
//   BENCH_MIXED_MB size of each mixed-content file in MiB (default 250)
//
// Every measured command runs as `nice -n 19 ionice -c3 /usr/bin/time -v …`; the page
// cache is dropped before each one when /proc/sys/vm/drop_caches is writable.
// The data set is generated deterministically (AES-CTR streams and a seeded word
// generator), so re-runs see identical bytes.
import { execFileSync, spawnSync } from 'node:child_process';
import { createCipheriv, createHash } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

const here = path.dirname(fileURLToPath(import.meta.url));
const root = path.resolve(here, '..', '..');
const vaultBin = path.join(root, 'packages', 'vault', 'bin', 'bogwan-vault.js');
const BENCH = process.env.BENCH_DIR ?? '/tmp/bogwan-bench';
const SMALL = process.env.BENCH_SET === 'mixed' ? 0 : Number(process.env.BENCH_SMALL ?? 50_000);
const BIG_MB = Number(process.env.BENCH_BIG_MB ?? 250);
const SET = process.env.BENCH_SET ?? 'both';
if (!['random', 'mixed', 'both'].includes(SET)) throw new Error(`BENCH_SET must be random, mixed or both, not ${SET}`);
const WITH_RANDOM = SET !== 'mixed';
const WITH_MIXED = SET !== 'random';
const BIG_FILES = WITH_RANDOM ? 3 : 0;
const MIXED_MB = Number(process.env.BENCH_MIXED_MB ?? 250);
/** The mixed-content files: two disk-image-like, one tar-like. */
const MIXED_FILES = WITH_MIXED ? ['disk-0.img', 'disk-1.img', 'archive-0.tar'] : [];
const TOOLS = (process.env.BENCH_TOOLS ?? 'restic,borg,vault').split(',');
const ALL_TOOLS = ['restic', 'borg', 'vault'];
const DATA = path.join(BENCH, 'data');
const lastRunFile = path.join(here, 'last-run.json');

const env = {
  ...process.env,
  // bogwan-vault runs as a program, as `npx bogwan-vault` does (its first line starts Node
  // with its flags); the Node running this script is the one it finds first.
  PATH: `${path.dirname(process.execPath)}${path.delimiter}${process.env.PATH ?? ''}`,
  RESTIC_PASSWORD: 'bench password',
  RESTIC_CACHE_DIR: path.join(BENCH, 'cache-restic'),
  BORG_PASSPHRASE: 'bench password',
  BORG_BASE_DIR: path.join(BENCH, 'borg-base'),
  BORG_RELOCATED_REPO_ACCESS_IS_OK: 'yes',
  BORG_UNKNOWN_UNENCRYPTED_REPO_ACCESS_IS_OK: 'yes',
  BOGWAN_VAULT_PASSWORD: 'bench password',
};

// ---------------------------------------------------------------- data set

/** Deterministic pseudo-random bytes: AES-128-CTR keystream of a labelled seed. */
function stream(label, length) {
  const key = createHash('sha256').update(`bench ${label}`).digest();
  const cipher = createCipheriv('aes-128-ctr', key.subarray(0, 16), key.subarray(16, 32));
  return cipher.update(Buffer.alloc(length));
}

function xorshift(seed) {
  let x = seed >>> 0 || 1;
  return () => {
    x ^= x << 13;
    x >>>= 0;
    x ^= x >>> 17;
    x ^= x << 5;
    x >>>= 0;
    return x;
  };
}

/** 8 MiB of word-like text; small text files are slices of it (compressible ~3×). */
function corpus() {
  const rnd = xorshift(42);
  const syll = ['ka', 'no', 'ri', 'tem', 'bo', 'gwan', 'sa', 'lu', 'mi', 'dor', 'en', 'val', 'tis', 'ha', 'rok', 'ze', 'pa', 'qui', 'lo', 'ster'];
  const words = [];
  for (let i = 0; i < 2000; i++) {
    let w = '';
    for (let k = 1 + (rnd() % 4); k > 0; k--) w += syll[rnd() % syll.length];
    words.push(w);
  }
  const parts = [];
  let size = 0;
  while (size < 8 * 1024 * 1024) {
    const line = [];
    for (let k = 4 + (rnd() % 12); k > 0; k--) line.push(words[Math.floor(Math.pow(rnd() / 2 ** 32, 2) * words.length)]);
    const s = `${line.join(' ')}.\n`;
    parts.push(s);
    size += s.length;
  }
  return Buffer.from(parts.join(''));
}

const TEXT = corpus();

function smallFile(i, generation) {
  const rnd = xorshift(i * 2654435761 + generation * 97 + 1);
  const size = 1024 + (rnd() % 10240);
  if (i % 2 === 0) return stream(`small ${i} ${generation}`, size);
  const at = rnd() % (TEXT.length - size);
  return Buffer.concat([Buffer.from(`file ${i} generation ${generation}\n`), TEXT.subarray(at, at + size)]);
}

function smallPath(i) {
  return path.join(DATA, 'small', `d${String(Math.floor(i / 500)).padStart(3, '0')}`, `f${String(i).padStart(5, '0')}.${i % 2 ? 'txt' : 'bin'}`);
}

// Mixed content: stretches that compress well and stretches that do not, in one file, as
// disk images, tar archives and database files have them.

/** `length` bytes of database-page-like records: counters, small numbers, words, padding. */
function structured(rnd, length) {
  const out = Buffer.alloc(length);
  const page = 8192;
  let row = rnd() % 100_000;
  for (let p = 0; p < length; p += page) {
    out.writeUInt32LE(p / page, p);
    out.writeUInt32LE(rnd(), p + 4);
    for (let at = p + 64; at + 96 <= Math.min(p + page, length); at += 96) {
      out.writeUInt32LE(row++, at);
      out.writeUInt32LE(1_700_000_000 + row * 7, at + 4);
      out.writeUInt16LE(rnd() % 1000, at + 8);
      const w = rnd() % (TEXT.length - 48);
      TEXT.copy(out, at + 12, w, w + 20 + (rnd() % 28));
    }
  }
  return out;
}

/** Bytes of one kind: zeros, text, structured records or random (already compressed) data. */
function stretch(kind, rnd, length, label) {
  if (kind === 'zeros') return Buffer.alloc(length);
  if (kind === 'random') return stream(label, length);
  if (kind === 'structured') return structured(rnd, length);
  const at = rnd() % (TEXT.length - length);
  return TEXT.subarray(at, at + length);
}

/** A kind drawn by weight: [[kind, weight], …] with weights summing to 100. */
function pick(rnd, weights) {
  let x = rnd() % 100;
  for (const [kind, w] of weights) {
    if (x < w) return kind;
    x -= w;
  }
  return weights[weights.length - 1][0];
}

/** Writes pieces to a file in 16 MiB writes. */
function fileWriter(file) {
  const fd = fs.openSync(file, 'w');
  let pending = [];
  let size = 0;
  let written = 0;
  return {
    add(piece) {
      pending.push(piece);
      size += piece.length;
      if (size >= 16 * 1024 * 1024) this.flush();
    },
    flush() {
      if (size > 0) fs.writeSync(fd, Buffer.concat(pending, size));
      written += size;
      pending = [];
      size = 0;
    },
    get length() {
      return written + size;
    },
    close() {
      this.flush();
      fs.closeSync(fd);
    },
  };
}

/**
 * A disk-image-like file: runs of zeros, text, records and random bytes, each 4 KiB–4 MiB
 * (log-uniform, whole 4 KiB blocks).
 */
function diskImage(file, seed, bytes) {
  const rnd = xorshift(seed);
  const out = fileWriter(file);
  for (let run = 0; out.length < bytes; run++) {
    const blocks = Math.round(Math.pow(2, ((rnd() % 10_000) / 10_000) * 10));
    const length = Math.min(blocks * 4096, bytes - out.length);
    const kind = pick(rnd, [
      ['zeros', 30],
      ['text', 20],
      ['structured', 20],
      ['random', 30],
    ]);
    out.add(stretch(kind, rnd, length, `disk ${seed} ${run}`));
  }
  out.close();
}

function octal(n, width) {
  return `${n.toString(8).padStart(width - 1, '0')}\0`;
}

/** A tar-like file: members of mixed kinds (64 B–2 MiB) behind 512-byte ustar headers. */
function tarArchive(file, seed, bytes) {
  const rnd = xorshift(seed);
  const out = fileWriter(file);
  for (let m = 0; out.length < bytes - 1024; m++) {
    const kind = pick(rnd, [
      ['text', 40],
      ['random', 30],
      ['structured', 20],
      ['zeros', 10],
    ]);
    const size = Math.min(Math.round(64 * Math.pow(2, ((rnd() % 10_000) / 10_000) * 15)), Math.max(0, bytes - out.length - 1536));
    const header = Buffer.alloc(512);
    header.write(`member-${String(m).padStart(6, '0')}.${kind === 'random' ? 'jpg' : kind === 'text' ? 'txt' : 'dat'}`, 0);
    header.write(octal(0o644, 8), 100);
    header.write(octal(1000, 8), 108);
    header.write(octal(1000, 8), 116);
    header.write(octal(size, 12), 124);
    header.write(octal(1_700_000_000 + m, 12), 136);
    header.write('        ', 148);
    header.write('0', 156);
    header.write('ustar\u000000', 257);
    header.write('bench', 265);
    header.write('bench', 297);
    let sum = 0;
    for (const b of header) sum += b;
    header.write(`${sum.toString(8).padStart(6, '0')}\0 `, 148);
    out.add(header);
    out.add(stretch(kind, rnd, size, `tar ${seed} ${m}`));
    if (size % 512) out.add(Buffer.alloc(512 - (size % 512)));
  }
  out.add(Buffer.alloc(1024)); // end of archive
  out.close();
}

function mixedPath(name) {
  return path.join(DATA, 'mixed', name);
}

function generateMixed() {
  fs.mkdirSync(path.join(DATA, 'mixed'), { recursive: true });
  MIXED_FILES.forEach((name, n) => {
    if (name.endsWith('.tar')) tarArchive(mixedPath(name), 7001 + n, MIXED_MB * 1024 * 1024);
    else diskImage(mixedPath(name), 5001 + n, MIXED_MB * 1024 * 1024);
  });
}

function generate() {
  fs.rmSync(DATA, { recursive: true, force: true });
  fs.mkdirSync(DATA, { recursive: true });
  if (WITH_MIXED) generateMixed();
  for (let i = 0; i < SMALL; i++) {
    const p = smallPath(i);
    if (i % 500 === 0) fs.mkdirSync(path.dirname(p), { recursive: true });
    fs.writeFileSync(p, smallFile(i, 0));
  }
  if (BIG_FILES > 0) fs.mkdirSync(path.join(DATA, 'large'), { recursive: true });
  for (let b = 0; b < BIG_FILES; b++) {
    const fd = fs.openSync(path.join(DATA, 'large', `big-${b}.bin`), 'w');
    for (let mb = 0; mb < BIG_MB; mb += 16) fs.writeSync(fd, stream(`big ${b} ${mb}`, Math.min(16, BIG_MB - mb) * 1024 * 1024));
    fs.closeSync(fd);
  }
}

/**
 * The small change: rewrite 1% of the small files, append 4 MiB to one large file; in the
 * first disk image, 64 spread 4 KiB blocks rewritten in place (as a guest writes).
 */
function smallChange() {
  for (let i = 0; i < SMALL; i += 100) fs.writeFileSync(smallPath(i), smallFile(i, 1));
  if (BIG_FILES > 0) fs.appendFileSync(path.join(DATA, 'large', 'big-0.bin'), stream('append', 4 * 1024 * 1024));
  if (WITH_MIXED) {
    const fd = fs.openSync(mixedPath(MIXED_FILES[0]), 'r+');
    const blocks = (MIXED_MB * 1024 * 1024) / 4096;
    for (let k = 0; k < 64; k++)
      fs.writeSync(fd, k % 2 ? stream(`disk write ${k}`, 4096) : structured(xorshift(k + 1), 4096), 0, 4096, Math.floor(((k + 0.5) * blocks) / 64) * 4096);
    fs.closeSync(fd);
  }
}

function duBytes(dir) {
  return Number(execFileSync('du', ['-sb', dir], { encoding: 'utf8' }).split('\t')[0]);
}

function countFiles(dir) {
  return Number(execFileSync('sh', ['-c', `find "${dir}" -type f | wc -l`], { encoding: 'utf8' }).trim());
}

// ---------------------------------------------------------------- measuring

let dropNote = null;
function dropCaches() {
  try {
    execFileSync('sh', ['-c', 'sync; echo 3 > /proc/sys/vm/drop_caches'], { stdio: 'pipe' });
    dropNote = dropNote ?? 'page cache dropped before every measured command (cold)';
  } catch (err) {
    dropNote = `page cache could not be dropped (${String(err.message).split('\n')[0]}): all tools run warm`;
  }
}

/** Runs one measured command; returns seconds and peak RSS in MiB. */
function measure(label, cmd, args, cwd) {
  dropCaches();
  const timeFile = path.join(BENCH, 'time.txt');
  const started = process.hrtime.bigint();
  const r = spawnSync('nice', ['-n', '19', 'ionice', '-c3', '/usr/bin/time', '-v', '-o', timeFile, cmd, ...args], {
    cwd: cwd ?? BENCH,
    env,
    encoding: 'utf8',
    maxBuffer: 256 * 1024 * 1024,
  });
  const seconds = Number(process.hrtime.bigint() - started) / 1e9;
  const timeText = fs.existsSync(timeFile) ? fs.readFileSync(timeFile, 'utf8') : '';
  const rssKb = Number(/Maximum resident set size \(kbytes\): (\d+)/.exec(timeText)?.[1] ?? NaN);
  if (r.status !== 0) {
    throw new Error(`${label}: ${cmd} ${args.join(' ')} exited ${r.status}\n${r.stdout?.slice(-2000)}\n${r.stderr?.slice(-2000)}`);
  }
  // CPU seconds (user + system) say more than wall time on a machine shared with others.
  const cpu = ['User', 'System'].reduce((sum, kind) => sum + Number(new RegExp(`${kind} time \\(seconds\\): ([\\d.]+)`).exec(timeText)?.[1] ?? NaN), 0);
  const result = { seconds: Math.round(seconds * 100) / 100, cpuSeconds: Math.round(cpu * 100) / 100, rssMiB: Math.round((rssKb / 1024) * 10) / 10 };
  console.log(
    `  ${label.padEnd(28)} ${String(result.seconds).padStart(8)} s  ${String(result.cpuSeconds).padStart(8)} s CPU  ${String(result.rssMiB).padStart(8)} MiB`,
  );
  return { ...result, stdout: r.stdout };
}

const tools = {
  restic: {
    repo: path.join(BENCH, 'repo-restic'),
    init() {
      execFileSync('restic', ['init', '--repo', this.repo], { env, stdio: 'pipe' });
    },
    backup() {
      return ['restic', ['backup', '--repo', this.repo, DATA]];
    },
    restore(target) {
      return ['restic', ['restore', '--repo', this.repo, 'latest', '--target', target]];
    },
    restored: (target) => path.join(target, DATA),
    check() {
      return ['restic', ['check', '--repo', this.repo, '--read-data']];
    },
  },
  borg: {
    repo: path.join(BENCH, 'repo-borg'),
    init() {
      execFileSync('borg', ['init', '--encryption=repokey-blake2', this.repo], { env, stdio: 'pipe' });
    },
    backup(n) {
      return ['borg', ['create', `${this.repo}::snap${n}`, DATA]];
    },
    restore(target) {
      return ['borg', ['extract', `${this.repo}::snap3`], target];
    },
    restored: (target) => path.join(target, DATA.replace(/^\//, '')),
    check() {
      return ['borg', ['check', '--verify-data', this.repo]];
    },
  },
  vault: {
    repo: path.join(BENCH, 'repo-vault'),
    init() {
      execFileSync(vaultBin, ['init', '--repo', this.repo], { env, stdio: 'pipe' });
    },
    backup() {
      return [vaultBin, ['backup', '--repo', this.repo, DATA]];
    },
    restore(target) {
      return [vaultBin, ['restore', '--repo', this.repo, 'latest', '--target', target]];
    },
    restored: (target) => path.join(target, path.basename(DATA)),
    check() {
      return [vaultBin, ['check', '--repo', this.repo, '--read-data']];
    },
  },
};

function sha(file) {
  return createHash('sha256').update(fs.readFileSync(file)).digest('hex');
}

/** Compares the large files and every 97th small file with the source. */
function verifyRestore(tool, restoredRoot) {
  const rel = [...Array.from({ length: BIG_FILES }, (_, b) => path.join('large', `big-${b}.bin`)), ...MIXED_FILES.map((name) => path.join('mixed', name))];
  for (let i = 0; i < SMALL; i += 97) rel.push(path.relative(DATA, smallPath(i)));
  for (const r of rel) {
    if (sha(path.join(DATA, r)) !== sha(path.join(restoredRoot, r))) throw new Error(`${tool}: restored ${r} differs`);
  }
  const n = countFiles(restoredRoot);
  if (n !== SMALL + BIG_FILES + MIXED_FILES.length) throw new Error(`${tool}: restored ${n} files, expected ${SMALL + BIG_FILES + MIXED_FILES.length}`);
}

function version(cmd, args) {
  try {
    return execFileSync(cmd, args, { encoding: 'utf8', env }).trim().split('\n')[0];
  } catch {
    return `${cmd}: not found`;
  }
}

// ---------------------------------------------------------------- run

const PHASES = ['first', 'nochange', 'smallchange', 'restore', 'check'];
const PHASE_NAMES = {
  first: 'first backup',
  nochange: 'no-change incremental',
  smallchange: 'small-change incremental',
  restore: 'full restore',
  check: 'check --read-data',
};

function machineLine() {
  const cpu = /model name\s*:\s*(.*)/.exec(fs.readFileSync('/proc/cpuinfo', 'utf8'))?.[1] ?? 'unknown CPU';
  const commit = version('git', ['-C', root, 'rev-parse', '--short', 'HEAD']);
  return [
    `${os.cpus().length} cores (nproc ${execFileSync('nproc', { encoding: 'utf8' }).trim()}), ${cpu}, ${(os.totalmem() / 2 ** 30).toFixed(1)} GiB RAM`,
    `Linux ${os.release()}`,
    version('restic', ['version']),
    version('borg', ['--version']),
    `bogwan-vault 0.1.0 (git ${commit}${execFileSync('git', ['-C', root, 'status', '--porcelain', 'packages/vault'], { encoding: 'utf8' }).trim() ? '+changes' : ''}) on Node ${process.version}`,
    new Date().toISOString().slice(0, 16).replace('T', ' ') + ' UTC',
  ].join('; ');
}

function main() {
  const t0 = Date.now();
  const loadStart = os.loadavg().map((x) => Math.round(x * 100) / 100);
  fs.mkdirSync(BENCH, { recursive: true });
  const previous = fs.existsSync(lastRunFile) ? JSON.parse(fs.readFileSync(lastRunFile, 'utf8')) : null;
  console.log(`generating ${SMALL} small files, ${BIG_FILES} × ${BIG_MB} MiB random and ${MIXED_FILES.length} × ${MIXED_MB} MiB mixed in ${DATA} …`);
  generate();
  const dataset = {
    set: SET,
    files: SMALL + BIG_FILES + MIXED_FILES.length,
    bytes: duBytes(DATA),
    mixedBytes: WITH_MIXED ? duBytes(path.join(DATA, 'mixed')) : 0,
  };
  console.log(`  ${dataset.files} files, ${(dataset.bytes / 1e9).toFixed(2)} GB in ${((Date.now() - t0) / 1000).toFixed(0)} s`);

  const results = {};
  for (const name of TOOLS) {
    const tool = tools[name];
    fs.rmSync(tool.repo, { recursive: true, force: true });
    tool.init();
    results[name] = { phases: {} };
  }
  const runPhase = (phase, fn) => {
    console.log(PHASE_NAMES[phase]);
    for (const name of TOOLS) results[name].phases[phase] = fn(name, tools[name]);
  };
  runPhase('first', (name, tool) => measure(`${name} first backup`, ...tool.backup(1)));
  runPhase('nochange', (name, tool) => measure(`${name} no-change`, ...tool.backup(2)));
  smallChange();
  runPhase('smallchange', (name, tool) => measure(`${name} small change`, ...tool.backup(3)));
  runPhase('restore', (name, tool) => {
    const target = path.join(BENCH, `restore-${name}`);
    fs.rmSync(target, { recursive: true, force: true });
    fs.mkdirSync(target);
    const [cmd, args] = tool.restore(target);
    const m = measure(`${name} restore`, cmd, args, target);
    verifyRestore(name, tool.restored(target));
    fs.rmSync(target, { recursive: true, force: true });
    return m;
  });
  runPhase('check', (name, tool) => measure(`${name} check --read-data`, ...tool.check()));
  for (const name of TOOLS) {
    results[name].repoBytes = duBytes(tools[name].repo);
    for (const p of Object.values(results[name].phases)) delete p.stdout;
  }

  // Tools not run this time come from the previous run (same generated data set).
  for (const name of ALL_TOOLS) {
    if (!results[name] && previous?.results?.[name]) results[name] = { ...previous.results[name], fromPreviousRun: previous.date };
  }
  const load = { start: loadStart, end: os.loadavg().map((x) => Math.round(x * 100) / 100) };
  const run = {
    date: new Date().toISOString(),
    machine: machineLine(),
    load,
    cache: dropNote,
    dataset,
    results,
    totalSeconds: Math.round((Date.now() - t0) / 1000),
  };
  fs.writeFileSync(lastRunFile, `${JSON.stringify(run, null, 2)}\n`);
  const table = renderTable(run);
  fs.writeFileSync(path.join(here, 'last-run.md'), table);
  console.log(`\n${table}`);
  if (!process.env.BENCH_KEEP) fs.rmSync(BENCH, { recursive: true, force: true });
}

const fmt = (x, unit) => (Number.isFinite(x) ? `${x >= 100 ? x.toFixed(0) : x.toFixed(x >= 10 ? 1 : 2)}${unit}` : 'n/a');
const ratio = (a, b) => (Number.isFinite(a) && Number.isFinite(b) && b > 0 ? a / b : NaN);

/** Markdown: absolute numbers, each tool as a ratio to the best peer, targets. */
export function renderTable(run) {
  const r = run.results;
  const present = ALL_TOOLS.filter((t) => r[t]);
  const metric = (tool, key) => {
    if (key === 'size') return r[tool].repoBytes / 2 ** 20;
    if (key === 'rss') return Math.max(...PHASES.map((p) => r[tool].phases[p]?.rssMiB ?? NaN));
    return r[tool].phases[key]?.seconds;
  };
  const rows = [
    ['first', 'first backup', 's', 'best', 0.8],
    ['nochange', 'no-change incremental', 's', 'best', 0.5],
    ['smallchange', 'small-change incremental', 's', 'best', null],
    ['restore', 'full restore', 's', 'restic', 0.8],
    ['check', 'check --read-data', 's', 'best', 1.0],
    ['size', 'repository size', ' MiB', 'best', 1.0],
    ['rss', 'peak RSS (max of all operations)', ' MiB', 'restic', 1.0],
  ];
  const lines = [];
  lines.push(
    `Data set${run.dataset.set ? ` (${run.dataset.set})` : ''}: ${run.dataset.files} files, ${(run.dataset.bytes / 1e9).toFixed(2)} GB${run.dataset.mixedBytes ? `, of which ${(run.dataset.mixedBytes / 1e9).toFixed(2)} GB mixed-content` : ''}. ${run.cache}. Total benchmark time ${Math.round(run.totalSeconds / 60)} min.`,
  );
  lines.push('');
  lines.push(`| measure | ${present.join(' | ')} | vault ÷ reference | reference | target | met |`);
  lines.push(`|---|${present.map(() => '---:').join('|')}|---:|---|---|---|`);
  for (const [key, label, unit, against, target] of rows) {
    const values = Object.fromEntries(present.map((t) => [t, metric(t, key)]));
    const peers = ['restic', 'borg'].filter((t) => Number.isFinite(values[t]));
    const best = Math.min(...peers.map((t) => values[t]));
    const ref = against === 'restic' ? values.restic : best;
    const refName = against === 'restic' ? 'restic' : `best peer (${peers.find((t) => values[t] === best) ?? '?'})`;
    const cells = present.map((t) => `${fmt(values[t], unit)} (${fmt(ratio(values[t], best), '×')})`);
    const vr = ratio(values.vault, ref);
    const met = target === null || !Number.isFinite(vr) ? '—' : vr <= target ? 'met' : 'not met';
    lines.push(`| ${label} | ${cells.join(' | ')} | ${fmt(vr, '×')} | ${refName} | ${target === null ? '—' : `≤ ${target.toFixed(1)}×`} | ${met} |`);
  }
  lines.push('');
  lines.push('Per-operation peak RSS (MiB):');
  lines.push('');
  lines.push(`| operation | ${present.join(' | ')} | vault ÷ restic |`);
  lines.push(`|---|${present.map(() => '---:').join('|')}|---:|`);
  for (const p of PHASES) {
    const v = Object.fromEntries(present.map((t) => [t, r[t].phases[p]?.rssMiB]));
    lines.push(`| ${PHASE_NAMES[p]} | ${present.map((t) => fmt(v[t], '')).join(' | ')} | ${fmt(ratio(v.vault, v.restic), '×')} |`);
  }
  lines.push('');
  lines.push('CPU seconds (user + system) per operation:');
  lines.push('');
  lines.push(`| operation | ${present.join(' | ')} | vault ÷ restic |`);
  lines.push(`|---|${present.map(() => '---:').join('|')}|---:|`);
  for (const p of PHASES) {
    const v = Object.fromEntries(present.map((t) => [t, r[t].phases[p]?.cpuSeconds]));
    lines.push(`| ${PHASE_NAMES[p]} | ${present.map((t) => fmt(v[t], '')).join(' | ')} | ${fmt(ratio(v.vault, v.restic), '×')} |`);
  }
  lines.push('');
  if (run.load) lines.push(`Load average (1, 5, 15 min) at the start: ${run.load.start.join(', ')}; at the end: ${run.load.end.join(', ')}.`, '');
  lines.push(
    `Numbers in parentheses: ratio to the best of restic and borg. ${present
      .filter((t) => r[t].fromPreviousRun)
      .map((t) => `${t} from the run of ${r[t].fromPreviousRun}`)
      .join('; ')}`,
  );
  return `${lines.join('\n')}\n`;
}

if (process.argv[1] === fileURLToPath(import.meta.url)) {
  try {
    main();
  } catch (err) {
    console.error(err.message);
    if (!process.env.BENCH_KEEP) fs.rmSync(BENCH, { recursive: true, force: true });
    process.exit(1);
  }
}
