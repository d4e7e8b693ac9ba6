// Web app bytes: the JavaScript each main page of the built web app loads, per route, as
// sent gzip-encoded (and brotli, for comparison). Not a test: prints figures. Needs the
// built web app and server (`npm run build`) and Debian's Chromium (or CHROMIUM_PATH).
//
//   node bench/web/bundle.mjs [--web-dir DIR] [--verbose] [--json FILE] [--baseline FILE]
//
// --web-dir   serves another build of the web app (a copy of an earlier dist/, for a before/after)
// --verbose   lists every chunk of every route with its gzip and brotli size
// --json      writes the figures to FILE
// --baseline  a FILE written by --json earlier: prints before, after and their ratio
// --only      a comma-separated list of route names to measure (e.g. /home,/dashboard), for a quick look
//
// Every route is opened in a fresh browser context (nothing cached), signed in through
// the session the app keeps in localStorage (or signed out for the sign-in page and a
// public share), and every .js/.mjs file of the app the page requested until the network
// was idle is counted: each is fetched again with `Accept-Encoding: gzip` and with `br`,
// and the bytes of the encoded body are summed (what the server's pre-compressed copies
// weigh on the wire; files under 1 KB have no copy and count as sent, uncompressed).
// "xlsx preview" is what opening an .xlsx file's preview in a storage folder adds.
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { chromium } from 'playwright-core';
import { CHROMIUM_ARGS, findChromium } from '../../e2e/chromium.mjs';
import { api, createFirstAccount, repo, startServer } from '../files/harness.mjs';

const args = process.argv.slice(2);
const value = (name) => (args.includes(`--${name}`) ? args[args.indexOf(`--${name}`) + 1] : undefined);
const WEB_DIR = value('web-dir') ? path.resolve(value('web-dir')) : null;
const VERBOSE = args.includes('--verbose');
const JSON_OUT = value('json');
const BASELINE = value('baseline') ? JSON.parse(fs.readFileSync(value('baseline'), 'utf8')) : null;
const ONLY = value('only')?.split(',');
const GOAL_KB = 300;
const ACCOUNT = { name: 'bench', email: 'bench@example.com', password: 'Bogwan!2026' };
const ROOT = 'Bench';
const XLSX = 'sample.xlsx';
const kb = (bytes) => (bytes / 1024).toFixed(1);

/** The encoded body of `url` as the server sends it for `encoding`: its length and the encoding used. */
function encodedSize(url, encoding) {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers: { 'accept-encoding': encoding } }, (res) => {
        let bytes = 0;
        res.on('data', (chunk) => (bytes += chunk.length));
        res.on('end', () => {
          if (res.statusCode !== 200) reject(new Error(`${url}: ${res.statusCode}`));
          else resolve({ bytes, encoding: res.headers['content-encoding'] ?? 'identity' });
        });
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

/** Sizes of a set of script URLs: per file and summed. */
async function weigh(urls) {
  const files = [];
  for (const url of [...urls].sort()) {
    const gzip = await encodedSize(url, 'gzip');
    const br = await encodedSize(url, 'br');
    const raw = await encodedSize(url, 'identity');
    files.push({ file: new URL(url).pathname, gzip: gzip.bytes, gzipEncoding: gzip.encoding, br: br.bytes, raw: raw.bytes });
  }
  const sum = (key) => files.reduce((total, file) => total + file[key], 0);
  return { gzip: sum('gzip'), br: sum('br'), raw: sum('raw'), count: files.length, files };
}

const isAppScript = (origin) => (url) => {
  const parsed = new URL(url);
  return parsed.origin === origin && /\.m?js$/.test(parsed.pathname);
};

/** A cold context (signed in when `session` is given) that records the app's script requests. */
async function coldPage(browser, origin, session) {
  const context = await browser.newContext({
    viewport: { width: 1400, height: 900 },
    locale: 'ko-KR',
    storageState: session ? { cookies: [], origins: [{ origin, localStorage: [{ name: 'auth', value: JSON.stringify(session) }] }] } : undefined,
  });
  const scripts = new Set();
  const wanted = isAppScript(origin);
  context.on('request', (request) => {
    if (wanted(request.url())) scripts.add(request.url());
  });
  const page = await context.newPage();
  page.on('worker', (worker) => {
    if (wanted(worker.url())) scripts.add(worker.url());
  });
  return { context, page, scripts };
}

async function settle(page) {
  await page.waitForLoadState('networkidle');
  // Anything started by the first render's effects (a lazy chunk, a worker) after that.
  await page.waitForTimeout(500);
  await page.waitForLoadState('networkidle');
}

/** Opens `pathname` cold and answers the scripts it loaded; `ready` must then be visible. */
async function measureRoute(browser, origin, route, session) {
  const { context, page, scripts } = await coldPage(browser, origin, session);
  try {
    await page.goto(origin + route.path, { waitUntil: 'networkidle' });
    await page.locator(route.ready).first().waitFor({ state: 'visible', timeout: 20_000 });
    await settle(page);
    const landed = new URL(page.url()).pathname;
    if (route.expect && !route.expect.test(landed)) throw new Error(`${route.path} ended at ${landed}`);
    return await weigh(scripts);
  } finally {
    await context.close();
  }
}

/** Opens the storage folder cold, then the .xlsx preview: the scripts the preview added. */
async function measureXlsx(browser, origin, session) {
  const { context, page, scripts } = await coldPage(browser, origin, session);
  try {
    await page.goto(`${origin}/storage/${encodeURIComponent(ROOT)}`, { waitUntil: 'networkidle' });
    const row = page.locator(`[role=row][data-entry-name="${XLSX}"]`);
    await row.waitFor({ state: 'visible', timeout: 20_000 });
    await settle(page);
    const before = new Set(scripts);
    await row.dblclick();
    await page.getByTestId('xlsx-preview').getByText('hong@example.com').waitFor({ state: 'visible', timeout: 30_000 });
    await settle(page);
    return await weigh([...scripts].filter((url) => !before.has(url)));
  } finally {
    await context.close();
  }
}

async function upload(url, token, folder, name, bytes) {
  const form = new FormData();
  const fields = { fileName: name, path: folder, userId: 'x', chunkIndex: '0', totalChunks: '1', isLastChunk: 'true', fileSize: String(bytes.length) };
  for (const [key, field] of Object.entries(fields)) form.append(key, field);
  form.append('file', new Blob([bytes]), 'blob');
  const res = await fetch(`${url}/api/file/upload`, { method: 'POST', headers: { authorization: `Bearer ${token}` }, body: form });
  if (!res.ok) throw new Error(`upload ${name}: ${res.status} ${await res.text()}`);
}

function printTable(results) {
  const before = BASELINE ? new Map(BASELINE.routes.map((r) => [r.name, r])) : null;
  const rows = [];
  if (before) {
    rows.push('| route | before gzip KB | after gzip KB | ratio | before br KB | after br KB | ratio | chunks before → after | ≤ 300 KB gzip |');
    rows.push('|---|---:|---:|---:|---:|---:|---:|---:|---|');
  } else {
    rows.push('| route | gzip KB | brotli KB | raw KB | chunks | ≤ 300 KB gzip |');
    rows.push('|---|---:|---:|---:|---:|---|');
  }
  for (const route of results.routes) {
    const met = route.name === 'xlsx preview (added)' ? '—' : route.gzip <= GOAL_KB * 1024 ? 'yes' : '**no**';
    const old = before?.get(route.name);
    if (before && old) {
      const ratio = (a, b) => (b / a).toFixed(2);
      rows.push(
        `| ${route.name} | ${kb(old.gzip)} | ${kb(route.gzip)} | ${ratio(old.gzip, route.gzip)} | ${kb(old.br)} | ${kb(route.br)} | ${ratio(old.br, route.br)} | ${old.count} → ${route.count} | ${met} |`,
      );
    } else if (before) {
      rows.push(`| ${route.name} | — | ${kb(route.gzip)} | — | — | ${kb(route.br)} | — | ${route.count} | ${met} |`);
    } else {
      rows.push(`| ${route.name} | ${kb(route.gzip)} | ${kb(route.br)} | ${kb(route.raw)} | ${route.count} | ${met} |`);
    }
  }
  console.log(rows.join('\n'));
}

async function main() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium: install it (apt-get install chromium) or set CHROMIUM_PATH');
  const webDir = WEB_DIR ?? path.join(repo, 'apps/web/dist');
  if (!fs.existsSync(path.join(webDir, 'index.html'))) throw new Error(`no web app build in ${webDir}: run npm run build`);
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-bench-web-'));
  const server = await startServer(path.join(work, 'data'), { env: WEB_DIR ? { BOGWAN_WEB_DIR: WEB_DIR } : {} });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const results = { when: new Date().toISOString(), webDir, chromium: browser.version(), routes: [] };
  try {
    await createFirstAccount(server, ACCOUNT);
    const session = await api(server.url, 'POST', '/api/auth/login', null, { email: ACCOUNT.email, password: ACCOUNT.password });
    const { token, user } = session;
    await api(server.url, 'POST', '/api/file', token, { name: ROOT, path: '/' });
    await api(server.url, 'POST', '/api/file', token, { name: '보고서', path: `/${ROOT}` });
    await upload(server.url, token, `/${ROOT}`, XLSX, fs.readFileSync(path.join(repo, 'apps/web/public/sample.xlsx')));
    const share = await api(server.url, 'POST', '/api/share', token, { path: `/${ROOT}`, scope: 'anyone' });
    const auth = { user, token };

    // `ready`: something the page draws once its data is in (or its frame, where it may be empty).
    const signedIn = [
      { name: '/home', path: '/home', ready: 'main' },
      { name: '/storage', path: '/storage', ready: 'main' },
      { name: `/storage/<root>`, path: `/storage/${ROOT}`, ready: `[role=row][data-entry-name="${XLSX}"]` },
      { name: '/shared', path: '/shared', ready: 'main' },
      { name: '/requests', path: '/requests', ready: 'main' },
      { name: '/recent', path: '/recent', ready: 'main' },
      { name: '/starred', path: '/starred', ready: 'main' },
      { name: '/search', path: '/search', ready: 'main' },
      { name: '/my-trash', path: '/my-trash', ready: 'main' },
      { name: '/user/<email>', path: `/user/${encodeURIComponent(ACCOUNT.email)}`, ready: 'main' },
      { name: '/guide', path: '/guide', ready: 'main' },
      { name: '/manual', path: '/manual', ready: 'main' },
      { name: '/dashboard', path: '/dashboard', ready: 'main' },
      { name: '/snapshot', path: '/snapshot', ready: 'main' },
      { name: '/restore', path: '/restore', ready: 'main' },
      { name: '/event', path: '/event', ready: 'main' },
      { name: '/log', path: '/log', ready: 'main' },
      { name: '/trash', path: '/trash', ready: 'main' },
    ];
    const wanted = (name) => !ONLY || ONLY.some((only) => name.startsWith(only));
    for (const route of signedIn.filter((r) => wanted(r.name))) {
      const expect = new RegExp(`^${route.path.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')}`);
      results.routes.push({ name: route.name, ...(await measureRoute(browser, server.url, { ...route, expect }, auth)) });
    }
    if (wanted('/auth/login'))
      results.routes.push({
        name: '/auth/login (signed out)',
        ...(await measureRoute(browser, server.url, { path: '/auth/login', ready: 'button[type=submit]' }, null)),
      });
    if (wanted('/share/'))
      results.routes.push({
        name: '/share/<key> (signed out)',
        ...(await measureRoute(browser, server.url, { path: `/share/${share.key}`, ready: 'main, [role=main], body > div' }, null)),
      });
    if (wanted('xlsx')) results.routes.push({ name: 'xlsx preview (added)', ...(await measureXlsx(browser, server.url, auth)) });
  } finally {
    await browser.close();
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill();
    await exited;
    fs.rmSync(work, { recursive: true, force: true });
  }

  console.log(`web app: ${path.relative(repo, webDir) || webDir}; Chromium ${results.chromium}; ${results.when}\n`);
  printTable(results);
  if (VERBOSE) {
    for (const route of results.routes) {
      console.log(`\n${route.name}: ${kb(route.gzip)} KB gzip, ${kb(route.br)} KB brotli, ${route.count} files`);
      for (const file of [...route.files].sort((a, b) => b.gzip - a.gzip)) {
        const note = file.gzipEncoding === 'gzip' ? '' : ` (sent ${file.gzipEncoding})`;
        console.log(`  ${kb(file.gzip).padStart(7)} gzip ${kb(file.br).padStart(7)} br ${kb(file.raw).padStart(8)} raw  ${file.file}${note}`);
      }
    }
  }
  if (JSON_OUT) fs.writeFileSync(JSON_OUT, `${JSON.stringify(results, null, 2)}\n`);
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
