import fs from 'node:fs';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterEach, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

/** The address the activity log recorded for the first account's creation. */
async function setupAddress(server: TestServer, forwardedFor: string): Promise<string> {
  const token = fs.readFileSync(path.join(server.dataDir, 'setup-token'), 'utf8').trim();
  const res = await call(server, apiCalls.setup, {
    body: { token, name: '관리자', email: 'master@example.com', password: GOOD_PASSWORD },
    headers: { 'x-forwarded-for': forwardedFor },
  });
  expect(res.status).toBe(200);
  const log = await call(server, apiCalls.event_list, { token: res.body.token, query: { skip: 0, limit: 100 } });
  const entry = log.body.items.find((e) => e.action === 'auth.setup');
  return entry!.ip!;
}

describeEachDialect('client address behind a proxy on $dialect', (dialect) => {
  let server: TestServer | undefined;
  afterEach(async () => {
    await server?.close();
    server = undefined;
  });

  it('true trusts only the proxy in front: the right-most X-Forwarded-For entry is the client', async () => {
    server = await startServer(dialect, { BOGWAN_TRUST_PROXY: 'true' });
    expect(await setupAddress(server, '1.2.3.4, 5.6.7.8')).toBe('5.6.7.8');
  });

  it('without a trusted proxy the header is ignored', async () => {
    server = await startServer(dialect);
    expect(await setupAddress(server, '1.2.3.4, 5.6.7.8')).toBe('127.0.0.1');
  });

  it('a hop count or a list of proxies walks back past the trusted ones only', async () => {
    server = await startServer(dialect, { BOGWAN_TRUST_PROXY: '2' });
    expect(await setupAddress(server, '1.2.3.4, 5.6.7.8')).toBe('1.2.3.4');
    await server.close();
    server = await startServer(dialect, { BOGWAN_TRUST_PROXY: '127.0.0.1, 5.6.7.0/24' });
    expect(await setupAddress(server, '9.9.9.9, 1.2.3.4, 5.6.7.8')).toBe('1.2.3.4');
  });

  it('a forged left-most X-Forwarded-For entry does not escape the per-address sign-in throttle', async () => {
    server = await startServer(dialect, { BOGWAN_TRUST_PROXY: 'true', BOGWAN_LOGIN_IP_MAX_FAILURES: '5' });
    await setupMaster(server);
    const attempt = (forwardedFor: string) =>
      callRefused(server!, apiCalls.login, {
        body: { email: 'nobody@example.com', password: 'Wrong!2345' },
        headers: { 'x-forwarded-for': forwardedFor },
      });
    for (let i = 1; i <= 5; i++) expect((await attempt(`10.0.0.${i}, 203.0.113.7`)).body.message).toBe('login_failure');
    // A new forged address in front changes nothing: the proxy saw 203.0.113.7.
    expect((await attempt('10.0.0.99, 203.0.113.7')).body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
    // Another client behind the same proxy is not affected.
    expect((await attempt('203.0.113.8')).body.message).toBe('login_failure');
  });
});
