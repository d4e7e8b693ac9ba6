#!/usr/bin/env node
// `npm test`: the house rules (typecheck, lint, format check), unit and integration tests
// (Vitest; SQLite always, PostgreSQL where reachable and required in CI), then the
// end-to-end tests in Chromium (Playwright).
// Ends with one line: `Tests: N passed, N failed[, N skipped]`.
import { spawnSync } from 'node:child_process';
import fs from 'node:fs';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { findChromium } from '../e2e/chromium.mjs';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const results = path.join(root, '.test-results');
fs.rmSync(results, { recursive: true, force: true });
fs.mkdirSync(results, { recursive: true });

const bin = (name) => path.join(root, 'node_modules', '.bin', name);
const run = (cmd, args, env = {}) => spawnSync(cmd, args, { cwd: root, stdio: 'inherit', env: { ...process.env, ...env } }).status ?? 1;

const totals = { passed: 0, failed: 0, skipped: 0 };
/** Tests that failed, and that failed once and passed when run again: printed above the last line. */
const failures = [];
const flaky = [];
let broken = false;

// 0. House rules checked by machines: types, lint and formatting, one check each.
for (const [name, cmd, args] of [
  ['typecheck (tsc)', 'npm', ['run', 'typecheck']],
  ['lint (eslint, zero findings)', bin('eslint'), ['.', '--max-warnings=0']],
  ['format (prettier --check)', bin('prettier'), ['--check', '--log-level=warn', '.']],
]) {
  console.log(`\n${name}`);
  if (run(cmd, args) === 0) totals.passed += 1;
  else {
    totals.failed += 1;
    failures.push(`house rules › ${name}`);
  }
}

// 1. Vitest
const vitestJson = path.join(results, 'vitest.json');
const vitestFlaky = path.join(results, 'vitest-flaky.txt');
const vitestStatus = run(
  bin('vitest'),
  ['run', '--reporter=default', '--reporter=json', `--outputFile.json=${vitestJson}`, '--reporter=./scripts/vitest-flaky-reporter.mjs'],
  { BOGWAN_FLAKY_FILE: vitestFlaky },
);
if (fs.existsSync(vitestJson)) {
  const v = JSON.parse(fs.readFileSync(vitestJson, 'utf8'));
  totals.passed += v.numPassedTests;
  totals.failed += v.numFailedTests;
  totals.skipped += v.numPendingTests + (v.numTodoTests ?? 0);
  if (vitestStatus !== 0 && v.numFailedTests === 0) broken = true; // e.g. a failed global setup
  failures.push(...vitestFailures(v, root));
  if (fs.existsSync(vitestFlaky)) flaky.push(...fs.readFileSync(vitestFlaky, 'utf8').split('\n').filter(Boolean));
} else {
  broken = true;
}

// 2. End-to-end in Chromium
const chromium = findChromium();
if (!chromium) {
  console.error(
    '\nEnd-to-end tests need Chromium and none was found.\n' +
      'Install it with `sudo apt-get install -y chromium` (Debian/Ubuntu), or set CHROMIUM_PATH to a Chromium or Chrome binary.\n',
  );
  totals.failed += 1;
} else {
  const buildStatus = run('npm', ['run', 'build']);
  if (buildStatus !== 0) {
    console.error('\nThe build failed; the end-to-end tests cannot run.\n');
    totals.failed += 1;
  } else {
    const pwJson = path.join(results, 'playwright.json');
    const pwStatus = run(bin('playwright'), ['test', '-c', 'e2e/playwright.config.ts'], {
      CHROMIUM_PATH: chromium,
      PLAYWRIGHT_JSON_OUTPUT_NAME: pwJson,
    });
    if (fs.existsSync(pwJson)) {
      const report = JSON.parse(fs.readFileSync(pwJson, 'utf8'));
      const s = report.stats;
      totals.passed += s.expected + s.flaky;
      totals.failed += s.unexpected;
      totals.skipped += s.skipped;
      flaky.push(...playwrightTitles(report, 'flaky'));
      if (pwStatus !== 0 && s.unexpected === 0) broken = true;
      failures.push(...playwrightTitles(report, 'unexpected'));
    } else {
      broken = true;
    }
  }
}

/** Titles of the Playwright tests whose outcome was `status` ('flaky': failed once, passed on retry). */
function playwrightTitles(report, status) {
  const titles = [];
  const visit = (suite, trail) => {
    for (const spec of suite.specs ?? []) {
      for (const test of spec.tests ?? []) {
        if (test.status === status) titles.push([...trail, spec.title].join(' › '));
      }
    }
    for (const child of suite.suites ?? []) visit(child, [...trail, child.title]);
  };
  for (const suite of report.suites ?? []) visit(suite, [suite.title]);
  return titles;
}

/** `file › test name` of each Vitest test that failed. */
function vitestFailures(report, base) {
  const names = [];
  for (const file of report.testResults ?? []) {
    const where = path.relative(base, file.name);
    const failed = (file.assertionResults ?? []).filter((t) => t.status === 'failed');
    for (const t of failed) names.push(`${where} › ${t.fullName}: ${firstLine(t.failureMessages?.[0])}`);
    if (!failed.length && file.status === 'failed') names.push(`${where} (the file failed: ${file.message ?? 'no message'})`);
  }
  return names;
}

function firstLine(message) {
  const line = (message ?? 'no message').split('\n')[0];
  return line.length > 300 ? `${line.slice(0, 300)}…` : line;
}

if (flaky.length) console.log(`\nFlaky (failed, then passed when run again):\n${flaky.map((name) => `  ~ ${name}`).join('\n')}`);
if (failures.length) console.log(`\nFailed:\n${failures.map((name) => `  ✗ ${name}`).join('\n')}`);
if (broken) totals.failed = Math.max(totals.failed, 1);
const skipped = totals.skipped ? `, ${totals.skipped} skipped` : '';
console.log(`\nTests: ${totals.passed} passed, ${totals.failed} failed${skipped}`);
process.exit(totals.failed > 0 ? 1 : 0);
