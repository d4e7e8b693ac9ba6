import fs from 'node:fs';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../../src/app.js';
import { loadConfig } from '../../src/config.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from '../harness.js';
import { scratchDir } from '../scratch-dir.js';

// Every process of an installation signs access tokens and seals stored secrets with one
// server secret. A process that has another one (BOGWAN_SECRET unset, so its own
// generated secret.key, or set differently) refuses to start instead of refusing every
// token the others signed and every secret they sealed.

describeEachDialect('a second process with another server secret ($dialect)', (dialect) => {
  let first: TestServer;
  let firstSecret: string;
  let databaseUrl: string;

  beforeAll(async () => {
    first = await startServer(dialect);
    firstSecret = fs.readFileSync(path.join(first.dataDir, 'secret.key'), 'utf8').trim();
    const { token } = await setupMaster(first);
    // A server directory both use, as a shared volume is.
    await call(first, apiCalls.storage_setting_update, { token, body: { server: { path: path.join(scratchDir('bogwan-shared-'), 'root') } } });
    const database = first.config.database;
    databaseUrl = database.dialect === 'postgres' ? database.url : `sqlite:${database.file}`;
  });
  afterAll(async () => {
    await first?.close();
  });

  /** Builds a second server on the first one's database, with its own data directory; closes it again. */
  const startSecond = async (env: Record<string, string>) => {
    const dataDir = scratchDir('bogwan-second-');
    const app = await buildApp(
      loadConfig({ BOGWAN_DATA_DIR: dataDir, BOGWAN_WEB_DIR: path.join(dataDir, 'no-web'), LOG_LEVEL: 'silent', DATABASE_URL: databaseUrl, ...env }),
    );
    await app.close();
  };

  it('refuses to start, naming BOGWAN_SECRET; with the same secret it starts', async () => {
    await expect(startSecond({})).rejects.toThrow(/BOGWAN_SECRET/);
    await expect(startSecond({ BOGWAN_SECRET: 'another-secret-of-at-least-32-characters' })).rejects.toThrow(/another secret than the other processes/);
    await expect(startSecond({ BOGWAN_SECRET: firstSecret })).resolves.toBeUndefined();
    // The first process goes on as before.
    await call(first, apiCalls.health);
  });
});
