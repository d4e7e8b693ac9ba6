import { randomBytes } from 'node:crypto';
import pg from 'pg';

/** Where the tests create their throw-away databases (trust auth on loopback by default). */
export const PG_ADMIN_URL = process.env.BOGWAN_TEST_PG_URL ?? 'postgres://postgres@127.0.0.1:5432/test';

/** True when the run must not skip the PostgreSQL suites (CI, or asked for). */
export function postgresRequired(): boolean {
  return process.env.CI === 'true' || process.env.BOGWAN_REQUIRE_PG === '1';
}

export async function postgresReachable(): Promise<string | null> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL, connectionTimeoutMillis: 3000 });
  try {
    await client.connect();
    await client.query('select 1');
    return null;
  } catch (error) {
    return error instanceof Error ? error.message : String(error);
  } finally {
    await client.end().catch(() => undefined);
  }
}

async function withAdmin<T>(fn: (client: pg.Client) => Promise<T>): Promise<T> {
  const client = new pg.Client({ connectionString: PG_ADMIN_URL });
  await client.connect();
  try {
    return await fn(client);
  } finally {
    await client.end();
  }
}

/** Creates a fresh, empty database and answers its URL. */
export async function createTestDatabase(): Promise<{ url: string; drop: () => Promise<void> }> {
  const name = `bogwan_test_${process.pid}_${randomBytes(4).toString('hex')}`;
  await withAdmin((c) => c.query(`CREATE DATABASE ${name}`));
  const url = new URL(PG_ADMIN_URL);
  url.pathname = `/${name}`;
  return {
    url: url.toString(),
    drop: () => withAdmin((c) => c.query(`DROP DATABASE IF EXISTS ${name} WITH (FORCE)`)).then(() => undefined),
  };
}
