/* global document, requestAnimationFrame -- functions run inside the page by page.evaluate */
// Storage browser benchmark: opening and scrolling a folder of 10,000 entries in Chromium,
// against the same browser's idle frame rate and a 100-entry folder in the same run. Not a
// test: prints figures and ratios. Needs the built web app and server (`npm run build`,
// done here unless --skip-build) and Debian's Chromium (or CHROMIUM_PATH).
//
//   node bench/files/browse.mjs [--entries 10000] [--seconds 6] [--runs 3] [--step 200] [--skip-build] [--web-dir DIR]
//
// --web-dir serves another build of the web app (an earlier version, for a before/after).
//
// Per folder: time from navigation to the first row; frame intervals while the list is
// scrolled by a fixed step every frame (requestAnimationFrame timestamps), long tasks
// (> 50 ms) in that time; rows in the DOM; time from a jump to the end until the last
// entry is shown (its page fetched and drawn). The baseline is the frame interval of the
// same page with nothing scrolling: the machine's own cadence.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { chromium } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from '../../e2e/chromium.mjs';
import { api, createFirstAccount, insertEntries, median, percentile, repo, startServer } from './harness.mjs';

const args = process.argv.slice(2);
const option = (name, fallback) => {
  const i = args.indexOf(`--${name}`);
  return i >= 0 ? Number(args[i + 1]) : fallback;
};
const ENTRIES = option('entries', 10_000);
const FEW = 100;
const SECONDS = option('seconds', 6);
const RUNS = option('runs', 3);
/** Pixels scrolled per frame (--step): 200 is ~4.5 rows a frame, a steady fast scroll; 500 a flick held for seconds. */
const STEP = option('step', 200);
const WEB_DIR = args.includes('--web-dir') ? path.resolve(args[args.indexOf('--web-dir') + 1]) : null;
const FRAME_MS = 1000 / 60;
const ACCOUNT = { name: 'bench', email: 'bench@example.com', password: 'Bogwan!2026' };
const log = (...m) => console.log(...m);
const round1 = (n) => Math.round(n * 10) / 10;
const round2 = (n) => Math.round(n * 100) / 100;

/** Chromium's cumulative time spent in script, style, layout and tasks (CDP Performance.getMetrics), in ms. */
async function busyTimes(cdp) {
  const { metrics } = await cdp.send('Performance.getMetrics');
  const of = (name) => (metrics.find((m) => m.name === name)?.value ?? 0) * 1000;
  return { script: of('ScriptDuration'), style: of('RecalcStyleDuration'), layout: of('LayoutDuration'), task: of('TaskDuration') };
}

/**
 * Frame intervals of a requestAnimationFrame loop for `seconds`, scrolling `step` px a frame
 * (0: none), with the main thread's time by kind spent meanwhile, per second.
 */
async function frames(page, seconds, step) {
  const cdp = await page.context().newCDPSession(page);
  await cdp.send('Performance.enable');
  const before = await busyTimes(cdp);
  const sample = await framesInPage(page, seconds, step);
  const after = await busyTimes(cdp);
  await cdp.detach();
  sample.busyMsPerSecond = Object.fromEntries(Object.keys(after).map((key) => [key, Math.round((after[key] - before[key]) / seconds)]));
  return sample;
}

async function framesInPage(page, seconds, step) {
  return page.evaluate(
    async ({ seconds, step }) => {
      const scroller = document.querySelector('[data-testid=file-list-scroller]');
      const intervals = [];
      const longTasks = [];
      const observer = new PerformanceObserver((list) => {
        for (const entry of list.getEntries()) longTasks.push(entry.duration);
      });
      observer.observe({ type: 'longtask' });
      let direction = 1;
      const rulesBefore = [...document.styleSheets].reduce((n, sheet) => n + sheet.cssRules.length, 0);
      await new Promise((resolve) => {
        let last = -1;
        const end = performance.now() + seconds * 1000;
        const tick = (now) => {
          if (last >= 0) intervals.push(now - last);
          last = now;
          if (step && scroller) {
            // Down to the end and back up again, so a short list keeps scrolling too.
            const max = scroller.scrollHeight - scroller.clientHeight;
            if (scroller.scrollTop >= max - 1) direction = -1;
            else if (scroller.scrollTop <= 0) direction = 1;
            scroller.scrollTop += direction * step;
          }
          if (now < end) requestAnimationFrame(tick);
          else resolve();
        };
        requestAnimationFrame(tick);
      });
      observer.disconnect();
      const rules = () => [...document.styleSheets].reduce((n, sheet) => n + sheet.cssRules.length, 0);
      return { intervals, longTasks, rowsInDom: scroller ? scroller.querySelectorAll('[role=row]').length : 0, cssRulesAdded: rules() - rulesBefore };
    },
    { seconds, step },
  );
}

function summary(sample) {
  const { intervals, longTasks } = sample;
  return {
    frames: intervals.length,
    // Frames the display showed without a new picture, of all it showed (60 Hz).
    droppedPct: round1(
      (100 * intervals.reduce((n, d) => n + Math.max(0, Math.round(d / FRAME_MS) - 1), 0)) /
        intervals.reduce((n, d) => n + Math.max(1, Math.round(d / FRAME_MS)), 0),
    ),
    p50ms: round1(percentile(intervals, 50)),
    p95ms: round1(percentile(intervals, 95)),
    p99ms: round1(percentile(intervals, 99)),
    over33ms: intervals.filter((d) => d > 33.4).length,
    longTasks: longTasks.length,
    blockingMs: Math.round(longTasks.reduce((sum, d) => sum + Math.max(0, d - 50), 0)),
    busyMsPerSecond: sample.busyMsPerSecond,
    cssRulesAdded: sample.cssRulesAdded,
  };
}

async function openFolder(page, url, folder) {
  const t0 = performance.now();
  await page.goto(`${url}/storage/Bench/${folder}`);
  await page.locator('[data-testid=file-list-scroller] [role=row][data-entry-name]').first().waitFor();
  return performance.now() - t0;
}

/** Jumps to the end of the list and waits until its last entry is drawn; null if it never is (10 s). */
async function jumpToEnd(page, lastName) {
  const t0 = performance.now();
  await page.evaluate(() => {
    const scroller = document.querySelector('[data-testid=file-list-scroller]');
    scroller.scrollTop = scroller.scrollHeight;
  });
  try {
    await page.locator(`[role=row][data-entry-name="${lastName}"]`).waitFor({ timeout: 10_000 });
  } catch {
    return null;
  }
  return performance.now() - t0;
}

async function main() {
  const executablePath = findChromium();
  if (!executablePath) throw new Error('no Chromium: apt-get install -y chromium, or set CHROMIUM_PATH');
  if (!args.includes('--skip-build')) {
    const build = spawnSync('npm', ['run', 'build'], { cwd: repo, stdio: 'inherit' });
    if (build.status !== 0) throw new Error('build failed');
  }
  const work = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-bench-browse-'));
  const server = await startServer(path.join(work, 'data'), { env: WEB_DIR ? { BOGWAN_WEB_DIR: WEB_DIR } : {} });
  const browser = await chromium.launch({ executablePath, args: CHROMIUM_ARGS });
  const results = { when: new Date().toISOString(), entries: ENTRIES, seconds: SECONDS, runs: RUNS, step: STEP, webDir: WEB_DIR, chromium: browser.version() };
  try {
    const { token, user } = await createFirstAccount(server, ACCOUNT);
    await api(server.url, 'POST', '/api/file', token, { name: 'Bench', path: '/', backend: 'server' });
    for (const name of ['few', 'many']) await api(server.url, 'POST', '/api/file', token, { name, path: '/Bench' });
    const root = (await api(server.url, 'GET', '/api/file/root', token)).find((r) => r.name === 'Bench');
    const folders = (await api(server.url, 'GET', `/api/file/list?path=${encodeURIComponent('/Bench')}`, token)).items;
    const idOf = (name) => folders.find((f) => f.name === name)._id;
    await insertEntries(server.dataDir, idOf('few'), root._id, user._id, FEW);
    await insertEntries(server.dataDir, idOf('many'), root._id, user._id, ENTRIES);

    const page = await browser.newPage({ viewport: { width: 1400, height: 900 } });
    await page.goto(`${server.url}/auth/login`);
    await page.getByLabel('이메일', { exact: true }).fill(ACCOUNT.email);
    await page.getByLabel('비밀번호', { exact: true }).fill(ACCOUNT.password);
    await page.locator('button[type=submit]').click();
    await page.waitForURL((u) => !u.pathname.includes('/auth/login'));

    const last = (count) => `file-${String(count - 1).padStart(6, '0')}.txt`;
    const runs = [];
    for (let run = 1; run <= RUNS; run++) {
      const measured = { run };
      measured.fewOpenMs = Math.round(await openFolder(page, server.url, 'few'));
      measured.idle = summary(await frames(page, SECONDS / 2, 0));
      measured.few = summary(await frames(page, SECONDS, STEP));
      measured.manyOpenMs = Math.round(await openFolder(page, server.url, 'many'));
      const scrolled = await frames(page, SECONDS, STEP);
      measured.many = { ...summary(scrolled), rowsInDom: scrolled.rowsInDom };
      const end = await jumpToEnd(page, last(ENTRIES));
      measured.manyEndMs = end === null ? null : Math.round(end);
      // The same scroll again from the far end of the list (upwards from there).
      if (end !== null) measured.manyFromEnd = summary(await frames(page, SECONDS, STEP));
      runs.push(measured);
      log('run', JSON.stringify(measured));
    }
    const of = (pick) => {
      const values = runs.map(pick).filter((v) => v !== null && v !== undefined);
      return values.length > 0 ? median(values) : null;
    };
    results.runs = runs;
    results.medians = {
      idleP95ms: of((r) => r.idle.p95ms),
      idleDroppedPct: of((r) => r.idle.droppedPct),
      fewDroppedPct: of((r) => r.few.droppedPct),
      manyDroppedPct: of((r) => r.many.droppedPct),
      manyFromEndDroppedPct: of((r) => r.manyFromEnd?.droppedPct),
      fewP95ms: of((r) => r.few.p95ms),
      manyP95ms: of((r) => r.many.p95ms),
      manyP99ms: of((r) => r.many.p99ms),
      manyFromEndP95ms: of((r) => r.manyFromEnd?.p95ms),
      manyFromEndP99ms: of((r) => r.manyFromEnd?.p99ms),
      manyLongTasks: of((r) => r.many.longTasks),
      manyRowsInDom: of((r) => r.many.rowsInDom),
      fewOpenMs: of((r) => r.fewOpenMs),
      manyOpenMs: of((r) => r.manyOpenMs),
      manyEndMs: of((r) => r.manyEndMs),
      manyEndNeverShown: runs.filter((r) => r.manyEndMs === null).length,
    };
    const m = results.medians;
    results.ratios = {
      manyScrollP95VsIdle: round2(m.manyP95ms / m.idleP95ms),
      manyScrollP95VsFew: round2(m.manyP95ms / m.fewP95ms),
      manyOpenVsFew: round2(m.manyOpenMs / m.fewOpenMs),
    };
    log('medians', JSON.stringify(results.medians));
    log('ratios', JSON.stringify(results.ratios));
    fs.writeFileSync(path.join(repo, 'bench/files/last-browse.json'), `${JSON.stringify(results, null, 2)}\n`);
  } finally {
    await browser.close();
    const exited = new Promise((resolve) => server.child.once('exit', resolve));
    server.child.kill();
    await exited;
    fs.rmSync(work, { recursive: true, force: true });
  }
}

main().catch((error) => {
  console.error(error);
  process.exit(1);
});
