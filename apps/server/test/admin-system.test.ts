import { type AccessLogQuery, apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { loadConfig } from '../src/config.js';
import { newId } from '../src/ids.js';
import { AccessLogRepo } from '../src/modules/access-log/access-log.repo.js';
import { AccessLogService } from '../src/modules/access-log/access-log.service.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('system information and log on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  // Entries of this test file live a year ahead, apart from what the requests themselves write.
  const base = Date.now() + 365 * 86_400_000;
  const at = (minutes: number) => new Date(base + minutes * 60_000).toISOString();
  const from = at(-1);

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com');
    const row = (minutes: number, fields: Partial<{ ip: string; method: string; url: string; status: number; user_agent: string }>) => ({
      id: newId(base + minutes * 60_000),
      created_at: at(minutes),
      ip: '10.1.2.3',
      method: 'GET',
      url: '/api/file/list?path=/Team',
      status: 200,
      response_time_ms: 1.5,
      content_length: 120,
      user_agent: 'Mozilla/5.0',
      user_id: null,
      ...fields,
    });
    await new AccessLogRepo(server.app.db).insertMany([
      row(0, {}),
      row(1, { ip: '10.1.9.9', method: 'POST', url: '/api/file/upload', status: 413 }),
      row(2, { ip: '192.168.0.7', method: 'DELETE', url: '/api/trash/abc', status: 403 }),
      row(3, { url: '/api/100%_done', status: 404 }),
      row(4, { url: '/api/export', user_agent: '=HYPERLINK("http://evil.example","click")' }),
      row(5, { url: '/api/한글/경로', user_agent: '+cmd|calc', ip: '@10.0.0.1' }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });

  const log = (query: AccessLogQuery, token = master.token) => call(server, apiCalls.system_log, { token, query: { from, ...query } });
  const logRefused = (query: AccessLogQuery) => callRefused(server, apiCalls.system_log, { token: master.token, query: { from, ...query } });

  it('refuses every call to a USER and to nobody', async () => {
    for (const contract of [apiCalls.system_info, apiCalls.system_network, apiCalls.policy, apiCalls.system_log, apiCalls.system_log_export]) {
      const path = contract.path;
      expect(await callRefused(server, contract, { token: user.token }), path).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
      expect((await callRefused(server, contract)).status, path).toBe(401);
      expect((await call(server, contract, { token: admin.token })).status, path).toBe(200);
    }
  });

  it('describes the machine and its network interfaces', async () => {
    const info = await call(server, apiCalls.system_info, { token: master.token });
    expect(info.body).toMatchObject({
      hostname: expect.any(String),
      platform: process.platform,
      arch: process.arch,
      release: expect.any(String),
      memory: { total: expect.any(Number), free: expect.any(Number) },
      cpu: { model: expect.any(String), speed: expect.any(Number), cores: expect.any(Number) },
    });
    expect(info.body.uptime).toBeGreaterThan(0);
    expect(info.body.cpu.cores).toBeGreaterThan(0);
    const network = await call(server, apiCalls.system_network, { token: master.token });
    const addresses = network.body.flatMap((i) => i.addresses);
    expect(addresses).toContainEqual(expect.objectContaining({ address: '127.0.0.1', internal: true }));
  });

  it('lists the policies the server enforces, with method and uri', async () => {
    const policies = (await call(server, apiCalls.policy, { token: master.token })).body;
    expect(policies).toContainEqual({
      category: 'system',
      name: 'system_log_export',
      description: expect.any(String),
      method: 'GET',
      uri: '/api/system/log/export',
      level: 2,
    });
    expect(policies).toContainEqual(expect.objectContaining({ name: 'dashboard', uri: '/api/dashboard', level: 2 }));
    expect(policies).toContainEqual(expect.objectContaining({ name: 'trash_retention_update', method: 'PUT', level: 2 }));
  });

  it('pages the log newest first and filters by ip, method, url, status and time', async () => {
    const page = await log({ limit: 2 });
    expect(page.body.total).toBe(6);
    expect(page.body.items.map((e) => e.url)).toEqual(['/api/한글/경로', '/api/export']);
    expect(page.body.items[0]).toMatchObject({ ip: '@10.0.0.1', method: 'GET', status: 200, responseTime: 1.5, contentLength: 120, userAgent: '+cmd|calc' });
    expect((await log({ limit: 2, skip: 4 })).body.items.map((e) => e.url)).toEqual(['/api/file/upload', '/api/file/list?path=/Team']);

    const urls = async (query: AccessLogQuery) => (await log(query)).body.items.map((e) => e.url);
    expect(await urls({ ip: '10.1.' })).toEqual(['/api/export', '/api/100%_done', '/api/file/upload', '/api/file/list?path=/Team']);
    expect(await urls({ method: 'DELETE' })).toEqual(['/api/trash/abc']);
    expect(await urls({ url: 'UPLOAD' })).toEqual(['/api/file/upload']);
    // % and _ are matched as themselves, not as wildcards.
    expect(await urls({ url: '100%_' })).toEqual(['/api/100%_done']);
    expect(await urls({ url: '%' })).toEqual(['/api/100%_done']);
    expect(await urls({ status: '4xx' })).toEqual(['/api/100%_done', '/api/trash/abc', '/api/file/upload']);
    expect(await urls({ status: '413' })).toEqual(['/api/file/upload']);
    expect(await urls({ from: at(1), to: at(3) })).toEqual(['/api/trash/abc', '/api/file/upload']);
    expect(await urls({ ip: '10.1.', method: 'GET', status: '2xx' })).toEqual(['/api/export', '/api/file/list?path=/Team']);
  });

  it('refuses malformed filters', async () => {
    const malformed: AccessLogQuery[] = [{ status: '6xx' }, { status: 'abc' }, { from: 'yesterday' }, { limit: '101' }, { skip: '-1' }];
    for (const query of malformed) {
      expect(await logRefused(query), JSON.stringify(query)).toMatchObject({ status: 400, body: { message: 'invalid_request_message' } });
    }
    // Raw on purpose: a method the contract's type does not allow.
    const brew = await server.request('GET', `/api/system/log?${new URLSearchParams({ from, method: 'BREW' })}`, { token: master.token });
    expect(brew, JSON.stringify({ method: 'BREW' })).toMatchObject({ status: 400, body: { message: 'invalid_request_message' } });
  });

  it('exports the filtered log as UTF-8 CSV with a BOM, formula-like cells escaped', async () => {
    // Raw fetch on purpose: the bytes themselves, to see the byte order mark.
    const res = await fetch(`${server.url}/api/system/log/export?${new URLSearchParams({ from, ip: '@' })}`, {
      headers: { authorization: `Bearer ${master.token}` },
    });
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toBe('attachment; filename="system_log_data.csv"');
    const bytes = Buffer.from(await res.arrayBuffer());
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const lines = bytes.subarray(3).toString('utf8').split('\r\n');
    expect(lines[0]).toBe('createdAt,ip,method,url,status,responseTimeMs,contentLength,userAgent,userId');
    expect(lines[1]).toBe(`${at(5)},'@10.0.0.1,GET,/api/한글/경로,200,1.5,120,'+cmd|calc,`);
    expect(lines.slice(2)).toEqual(['']);

    const all = await call(server, apiCalls.system_log_export, { token: admin.token, query: { from, to: at(10) } });
    const text = all.text.replace(/^\uFEFF/, '');
    const rows = text.split('\r\n').filter(Boolean);
    expect(rows).toHaveLength(7);
    expect(rows).toContain(`${at(4)},10.1.2.3,GET,/api/export,200,1.5,120,"'=HYPERLINK(""http://evil.example"",""click"")",`);
    expect(rows.some((r) => /(^|,)[=+@-]/.test(r.replace(/^[^,]+,/, '')))).toBe(false);
  });

  it('keeps the log for the configured number of days', async () => {
    const repo = new AccessLogRepo(server.app.db);
    const old = new Date(Date.now() - 40 * 86_400_000);
    await repo.insertMany([
      {
        id: newId(old.getTime()),
        created_at: old.toISOString(),
        ip: '10.9.9.9',
        method: 'GET',
        url: '/old',
        status: 200,
        response_time_ms: 1,
        content_length: null,
        user_agent: '',
        user_id: null,
      },
    ]);
    expect(await new AccessLogService(repo, 60).applyRetention()).toBe(0);
    expect(await new AccessLogService(repo, 30).applyRetention()).toBe(1);
    const left = await call(server, apiCalls.system_log, { token: master.token, query: { ip: '10.9.9.9' } });
    expect(left.body.total).toBe(0);
    // The rows of this file, a year ahead, are untouched.
    expect((await log({})).body.total).toBe(6);
  });

  it('reads the retention from the environment, within bounds', () => {
    expect(loadConfig({}).accessLogRetentionDays).toBe(90);
    expect(loadConfig({ BOGWAN_ACCESS_LOG_RETENTION_DAYS: '7' }).accessLogRetentionDays).toBe(7);
    expect(() => loadConfig({ BOGWAN_ACCESS_LOG_RETENTION_DAYS: '0' })).toThrow(/BOGWAN_ACCESS_LOG_RETENTION_DAYS/);
  });
});
