import { defineConfig } from '@playwright/test';
import { CHROMIUM_ARGS, findChromium } from './chromium.mjs';

const executablePath = findChromium();
if (!executablePath) {
  throw new Error('No Chromium found for the end-to-end tests. Install it with `sudo apt-get install -y chromium`, or set CHROMIUM_PATH.');
}

// Each test file starts its own server (fixtures.ts) on a random port with a fresh
// data directory, against the production build.
export default defineConfig({
  testDir: './tests',
  outputDir: '../.test-results/e2e-artifacts',
  fullyParallel: false,
  workers: 1,
  // In CI a test that fails is run once more; one that then passes is reported as flaky
  // by name (scripts/test.mjs), never hidden. Locally every failure shows at once.
  retries: process.env.CI ? 1 : 0,
  timeout: 60_000,
  expect: { timeout: 10_000 },
  reporter: [['list'], ['json']],
  use: {
    browserName: 'chromium',
    headless: true,
    locale: 'ko-KR',
    viewport: { width: 1280, height: 800 },
    launchOptions: { executablePath, args: CHROMIUM_ARGS },
    trace: 'retain-on-failure',
    screenshot: 'only-on-failure',
  },
});
