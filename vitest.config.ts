import { defineConfig } from 'vitest/config';

// Unit and integration tests of every workspace. End-to-end tests run separately
// (Playwright, e2e/). The global setup decides whether PostgreSQL is reachable.
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
          testTimeout: 120_000,
        },
      },
    ],
  },
});
