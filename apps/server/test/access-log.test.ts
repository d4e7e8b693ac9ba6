import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { newId } from '../src/ids.js';
import { AccessLogRepo } from '../src/modules/access-log/access-log.repo.js';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';

describeEachDialect('access log on $dialect', (dialect) => {
  let server: TestServer;
  beforeAll(async () => {
    server = await startServer(dialect);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('records each request with ip, method, url, status, time, length and agent', async () => {
    await call(server, apiCalls.health, { headers: { 'user-agent': 'log-probe/1.0' } });
    // A route that does not exist: no contract names it.
    await server.request('GET', '/api/missing?x=1', { headers: { 'user-agent': 'log-probe/1.0' } });
    await server.app.accessLog.flush();
    const rows = await new AccessLogRepo(server.app.db).list(0, 50);
    const health = rows.find((r) => r.url === '/api/health');
    expect(health).toMatchObject({ ip: '127.0.0.1', method: 'GET', status: 200, user_agent: 'log-probe/1.0' });
    expect(health!.content_length).toBeGreaterThan(0);
    expect(health!.response_time_ms).toBeGreaterThanOrEqual(0);
    expect(rows.find((r) => r.url === '/api/missing?x=1')).toMatchObject({ status: 404 });
  });

  it('stays bounded: trimming keeps only the newest rows', async () => {
    const repo = new AccessLogRepo(server.app.db);
    const start = Date.now() + 60_000;
    const rows = Array.from({ length: 1500 }, (_, i) => ({
      id: newId(start + i),
      created_at: new Date(start + i).toISOString(),
      ip: '127.0.0.1',
      method: 'GET',
      url: `/bulk/${i}`,
      status: 200,
      response_time_ms: 1,
      content_length: 1,
      user_agent: 'bulk',
      user_id: null,
    }));
    for (let i = 0; i < rows.length; i += 250) await repo.insertMany(rows.slice(i, i + 250));
    await repo.trimTo(1000);
    expect(await repo.count()).toBe(1000);
    const newest = await repo.list(0, 1);
    expect(newest[0]!.url).toBe('/bulk/1499');
    const all = await repo.list(0, 1000);
    expect(all.at(-1)!.url).toBe('/bulk/500');
  });
});
