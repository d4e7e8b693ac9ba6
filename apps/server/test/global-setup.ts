import type { TestProject } from 'vitest/node';
import { PG_ADMIN_URL, postgresReachable, postgresRequired } from './postgres.js';

declare module 'vitest' {
  export interface ProvidedContext {
    postgres: boolean;
  }
}

/**
 * Decides once per run whether the PostgreSQL suites run. Where PostgreSQL is
 * required (CI) and unreachable, the run fails here instead of skipping.
 */
export default async function setup(project: TestProject): Promise<void> {
  const problem = await postgresReachable();
  if (problem && postgresRequired()) {
    throw new Error(`PostgreSQL is required for this run but unreachable at ${PG_ADMIN_URL}: ${problem}`);
  }
  if (problem) console.warn(`PostgreSQL suites skipped: ${PG_ADMIN_URL} unreachable (${problem})`);
  project.provide('postgres', problem === null);
}
