import fs from 'node:fs';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { describeEachDialect, startServer, type TestServer } from './harness.js';

describeEachDialect('health on $dialect', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('answers ok while the database and blob store answer, 503 when the blob store does not', async () => {
    const ok = await server.request('GET', '/api/health');
    expect(ok.status).toBe(200);
    expect(ok.body).toEqual({ status: 'ok' });

    const tmp = path.join(server.dataDir, 'blobs', 'tmp');
    fs.rmSync(tmp, { recursive: true });
    fs.writeFileSync(tmp, 'a file where a directory should be');
    const down = await server.request('GET', '/api/health');
    expect(down.status).toBe(503);
    expect(down.body).toEqual({ status: 'unavailable' });

    fs.rmSync(tmp);
    fs.mkdirSync(tmp);
    expect((await server.request('GET', '/api/health')).status).toBe(200);
  });
});
