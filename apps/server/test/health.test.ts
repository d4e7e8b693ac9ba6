import fs from 'node:fs';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, startServer, type TestServer } from './harness.js';

describeEachDialect('health on $dialect', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers ok while the database and blob store answer, 503 when the blob store does not', async () => {
    const ok = await call(server, apiCalls.health);
    expect(ok.body).toEqual({ status: 'ok' });

    const tmp = path.join(server.dataDir, 'blobs', 'tmp');
    fs.rmSync(tmp, { recursive: true });
    fs.writeFileSync(tmp, 'a file where a directory should be');
    const down = await callRefused(server, apiCalls.health);
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable' });

    fs.rmSync(tmp);
    fs.mkdirSync(tmp);
    await call(server, apiCalls.health);
  });
});
