import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace. End-to-end tests run separately
// (Playwright, e2e/). The global setup decides whether PostgreSQL is reachable.

// As the server and the CLI do (docs/decisions.md): the S3 SDK's Node 22 notice is for
// whoever updates the SDK, not a test result.
const quietSdk = { AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED: 'true' };

export default defineConfig({
  test: {
    projects: [
      {
        test: {
          name: 'contracts',
          include: ['packages/contracts/src/**/*.test.ts'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'server',
          include: ['apps/server/src/**/*.test.ts', 'apps/server/test/**/*.test.ts'],
          environment: 'node',
          globalSetup: ['apps/server/test/global-setup.ts'],
          env: quietSdk,
          testTimeout: 30_000,
          hookTimeout: 60_000,
        },
      },
      {
        test: {
          name: 'web',
          include: ['apps/web/src/**/*.test.{ts,tsx}'],
          environment: 'node',
        },
      },
      {
        test: {
          name: 'vault',
          include: ['packages/vault/src/**/*.test.ts', 'packages/vault/test/**/*.test.ts'],
          environment: 'node',
          env: quietSdk,
          testTimeout: 120_000,
        },
      },
    ],
  },
});
