import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace. End-to-end tests run separately
// (Playwright, e2e/). The global setup decides whether PostgreSQL is reachable.

// As the server and the CLI do (docs/decisions.md): the S3 SDK's Node 22 notice is for
// whoever updates the SDK, not a test result.
const quietSdk = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

// In CI a failed test runs once more, as the end-to-end tests do; `npm test` names every
// test that needed it (scripts/vitest-flaky-reporter.mjs), so a flaky test is seen, not hidden.
const retry = process.env.CI ? 1 : 0;

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
          retry,
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          environment: 'node',
          retry,
          globalSetup: ['apps/server/test/global-setup.ts'],
          env: quietSdk,
          // Generous: the integration tests move tens of MiB through SQLite, PostgreSQL and
          // s3rver, and a loaded machine (two busy cores beside the run) tripled the
          // slowest from 8 to 25 s. A test that hangs still fails; one that is slow does not.
          testTimeout: 90_000,
          hookTimeout: 120_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
          retry,
        },
      },
      {
        test: {
          name: 'vault',
          include: ['packages/vault/src/**/*.test.ts', 'packages/vault/test/**/*.test.ts'],
          environment: 'node',
          retry,
          env: quietSdk,
          testTimeout: 120_000,
        },
      },
    ],
  },
});
