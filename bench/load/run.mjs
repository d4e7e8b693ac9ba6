#!/usr/bin/env node
// Load benchmark: CLIENTS concurrent clients (closed loop, keep-alive) on listing, download and
// metadata calls for DURATION seconds, while `/api/health` is pinged every 250 ms on its own
// connection; the same load on a bare Node HTTP server answering bodies of the same sizes
// (the baseline: what the machine and this client allow at all), same run. Not a test:
// prints latency percentiles, throughput, refusals (503 + Retry-After) and the ratios.
// Needs the built server (npm run build).
//
//   nice -n 10 node bench/load/run.mjs [--clients 200] [--duration 60] [--active N] [--cpu-prof DIR]
//
// `--active N` sets BOGWAN_MAX_ACTIVE_REQUESTS (a large N: no admission control, for comparison).
import { spawn } from 'node:child_process';
import { randomBytes, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { api, createFirstAccount, freePort, insertEntries, percentile, startServer } from '../files/harness.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? args[i + 1] : fallback;
};
const CLIENTS = Number(option('clients', 200));
const DURATION = Number(option('duration', 60)) * 1000;
const PROFILE_DIR = option('cpu-prof', undefined);
const ACTIVE = option('active', undefined);
const ENTRIES = 2000;
const FILES = 20;
const ACCOUNT = { name: '부하', email: 'load@example.com', password: 'Load!bench2026' };
const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-bench-load-'));
const log = (...m) => console.log(...m);

/** One single-chunk upload through the API (multipart, as the web client sends a small file). */
async function uploadSmall(url, token, folder, name, bytes) {
  const boundary = `----bogwan${randomUUID()}`;
  const fields = { fileName: name, path: folder, chunkIndex: 0, totalChunks: 1, isLastChunk: true, fileSize: bytes.length };
  const head = Object.entries(fields)
    .map(([k, v]) => `--${boundary}\r\ncontent-disposition: form-data; name="${k}"\r\n\r\n${v}\r\n`)
    .join('');
  const body = Buffer.concat([
    Buffer.from(`${head}--${boundary}\r\ncontent-disposition: form-data; name="file"; filename="blob"\r\ncontent-type: application/octet-stream\r\n\r\n`),
    bytes,
    Buffer.from(`\r\n--${boundary}--\r\n`),
  ]);
  const res = await fetch(`${url}/api/file/upload`, {
    method: 'POST',
    headers: { authorization: `Bearer ${token}`, 'content-type': `multipart/form-data; boundary=${boundary}` },
    body,
  });
  if (!res.ok) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
}

/** The product with an account, a folder of ENTRIES rows and FILES small files; answers the requests the clients make. */
async function startProduct() {
  const dataDir = path.join(work, 'bogwan');
  fs.mkdirSync(dataDir);
  const server = await startServer(dataDir, {
    env: ACTIVE ? { BOGWAN_MAX_ACTIVE_REQUESTS: ACTIVE } : {},
    nodeArgs: PROFILE_DIR ? ['--cpu-prof', '--cpu-prof-dir', path.resolve(PROFILE_DIR)] : [],
  });
  await createFirstAccount(server, ACCOUNT);
  const { token, user } = await api(server.url, 'POST', '/api/auth/login', null, { email: ACCOUNT.email, password: ACCOUNT.password });
  await api(server.url, 'POST', '/api/file', token, { name: 'load', path: '/' });
  await api(server.url, 'POST', '/api/file', token, { name: 'many', path: '/load' });
  await api(server.url, 'POST', '/api/file', token, { name: 'files', path: '/load' });
  const roots = await api(server.url, 'GET', '/api/file/list?path=%2F&limit=100', token);
  const rootId = roots.items.find((item) => item.name === 'load')._id;
  const inLoad = await api(server.url, 'GET', '/api/file/list?path=%2Fload&limit=100', token);
  await insertEntries(dataDir, inLoad.items.find((item) => item.name === 'many')._id, rootId, user._id, ENTRIES);
  for (let i = 0; i < FILES; i++) await uploadSmall(server.url, token, '/load/files', `문서-${i}.bin`, randomBytes(16 * 1024));
  const q = (params) => new URLSearchParams(params).toString();
  const requests = [
    { kind: 'listing', path: `/api/file/list?${q({ path: '/load/many', limit: 100 })}` },
    { kind: 'listing', path: `/api/file/list?${q({ path: '/load/many', limit: 100, skip: 1000 })}` },
    ...Array.from({ length: FILES }, (_, i) => ({ kind: 'download', path: `/api/file/download?${q({ path: `/load/files/문서-${i}.bin` })}` })),
    { kind: 'metadata', path: '/api/user/me' },
    { kind: 'metadata', path: `/api/file/tree?${q({ path: '/load' })}` },
  ];
  return { url: server.url, headers: { authorization: `Bearer ${token}` }, requests, stop: () => server.child.kill() };
}

/** A bare HTTP server answering the same paths with bodies of the sizes the product answers (measured first). */
async function startBare(sizes) {
  const port = await freePort();
  const script = `
    const http = require('node:http');
    const sizes = ${JSON.stringify(sizes)};
    const bodies = Object.fromEntries(Object.entries(sizes).map(([p, n]) => [p, Buffer.alloc(n, 97)]));
    http.createServer((req, res) => {
      const body = bodies[req.url] ?? Buffer.from('{"ok":true}');
      res.writeHead(200, { 'content-type': 'application/json', 'content-length': body.length });
      res.end(body);
    }).listen(${port}, '127.0.0.1', () => process.send?.('ready'));`;
  const child = spawn(process.execPath, ['-e', script], { stdio: ['ignore', 'ignore', 'inherit', 'ipc'] });
  await new Promise((resolve) => child.once('message', resolve));
  return { url: `http://127.0.0.1:${port}`, stop: () => child.kill() };
}

function get(agent, url, headers) {
  return new Promise((resolve) => {
    const t0 = process.hrtime.bigint();
    const req = http.get(url, { agent, headers }, (res) => {
      res.on('data', () => {});
      res.on('end', () => resolve({ status: res.statusCode, ms: Number(process.hrtime.bigint() - t0) / 1e6, retryAfter: res.headers['retry-after'] }));
    });
    req.on('error', () => resolve({ status: 0, ms: Number(process.hrtime.bigint() - t0) / 1e6 }));
  });
}

/** CLIENTS closed-loop clients for DURATION ms and a health pinger; answers the figures. */
async function load(target) {
  const agent = new http.Agent({ keepAlive: true, maxSockets: CLIENTS });
  const healthAgent = new http.Agent({ keepAlive: true, maxSockets: 1 });
  const until = Date.now() + DURATION;
  const times = { listing: [], download: [], metadata: [] };
  const statuses = {};
  let retryAfterMissing = 0;
  const client = async (offset) => {
    for (let i = offset; Date.now() < until; i++) {
      const request = target.requests[i % target.requests.length];
      const r = await get(agent, target.url + request.path, target.headers);
      statuses[r.status] = (statuses[r.status] ?? 0) + 1;
      if (r.status === 503 && r.retryAfter === undefined) retryAfterMissing++;
      if (r.status === 200) times[request.kind].push(r.ms);
      else if (r.status === 503) await new Promise((resolve) => setTimeout(resolve, Number(r.retryAfter ?? 1) * 1000));
    }
  };
  const health = [];
  const pinger = async () => {
    while (Date.now() < until) {
      const r = await get(healthAgent, `${target.url}/api/health`, {});
      if (r.status === 200) health.push(r.ms);
      await new Promise((resolve) => setTimeout(resolve, 250));
    }
  };
  const started = Date.now();
  await Promise.all([...Array.from({ length: CLIENTS }, (_, i) => client(i)), pinger()]);
  agent.destroy();
  healthAgent.destroy();
  const all = Object.values(times).flat();
  const summary = (values) =>
    values.length === 0
      ? null
      : { n: values.length, p50: percentile(values, 50), p99: percentile(values, 99), max: values.reduce((a, b) => Math.max(a, b), 0) };
  return {
    seconds: (Date.now() - started) / 1000,
    answered: all.length,
    perSecond: all.length / ((Date.now() - started) / 1000),
    all: summary(all),
    ...Object.fromEntries(Object.entries(times).map(([k, v]) => [k, summary(v)])),
    health: summary(health),
    statuses,
    retryAfterMissing,
  };
}

let product;
let bare;
try {
  product = await startProduct();
  // The sizes the product answers, so the baseline moves the same bytes.
  const sizes = {};
  for (const request of product.requests) {
    const res = await fetch(product.url + request.path, { headers: product.headers });
    sizes[request.path] = (await res.arrayBuffer()).byteLength;
  }
  bare = await startBare(sizes);
  log(
    `load: ${CLIENTS} clients, ${DURATION / 1000} s each; load average before: ${os
      .loadavg()
      .map((v) => v.toFixed(1))
      .join(' ')}`,
  );
  const baseline = await load({ ...bare, headers: {}, requests: product.requests });
  log('baseline', JSON.stringify(baseline));
  const measured = await load(product);
  log('bogwan', JSON.stringify(measured));
  const ratio = (a, b) => (a && b ? a / b : null);
  log(
    JSON.stringify(
      {
        when: new Date().toISOString(),
        loadAverageAfter: os.loadavg(),
        clients: CLIENTS,
        seconds: DURATION / 1000,
        bogwan: { p50: measured.all?.p50, p99: measured.all?.p99, max: measured.all?.max, perSecond: measured.perSecond, healthP99: measured.health?.p99 },
        baseline: { p50: baseline.all?.p50, p99: baseline.all?.p99, max: baseline.all?.max, perSecond: baseline.perSecond, healthP99: baseline.health?.p99 },
        throughputRatio: ratio(measured.perSecond, baseline.perSecond),
        targets: { p99Below500: (measured.all?.p99 ?? Infinity) < 500, healthP99Below50: (measured.health?.p99 ?? Infinity) < 50 },
        refused: measured.statuses['503'] ?? 0,
      },
      null,
      2,
    ),
  );
} finally {
  product?.stop();
  bare?.stop();
  fs.rmSync(work, { recursive: true, force: true });
}
