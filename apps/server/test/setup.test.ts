import fs from 'node:fs';
import path from 'node:path';
import { apiCalls, type SetupRequest } from '@bogwan/contracts';
import { afterEach, beforeEach, expect, it } from 'vitest';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('first run on $dialect', (dialect) => {
  let server: TestServer;
  beforeEach(async () => {
    server = await startServer(dialect);
  });
  afterEach(async () => {
    await server?.close();
  });

  const readToken = () => fs.readFileSync(path.join(server.dataDir, 'setup-token'), 'utf8').trim();
  const body = (over: Partial<SetupRequest> = {}): SetupRequest => ({
    token: readToken(),
    name: '홍길동',
    email: 'Owner@Example.com',
    password: GOOD_PASSWORD,
    ...over,
  });

  it('reports setup as required and writes a one-time token to the data directory', async () => {
    const res = await call(server, apiCalls.setup_status);
    expect(res.status).toBe(200);
    expect(res.body).toEqual({ required: true });
    expect(readToken()).toMatch(/^[A-Za-z0-9_-]{20,}$/);
  });

  it('creates the first account as an ACTIVE MASTER and retires the token', async () => {
    const res = await call(server, apiCalls.setup, { body: body() });
    expect(res.status).toBe(200);
    expect(res.body.user).toMatchObject({
      name: '홍길동',
      email: 'owner@example.com',
      role: 'MASTER',
      roleLevel: 3,
      status: 'ACTIVE',
      approved: true,
      provider: 'keeper',
    });
    expect(res.text).not.toMatch(/argon2|password_hash|passwordHash/);
    expect(typeof res.body.token).toBe('string');
    expect(fs.existsSync(path.join(server.dataDir, 'setup-token'))).toBe(false);
    expect((await call(server, apiCalls.setup_status)).body).toEqual({ required: false });

    const me = await call(server, apiCalls.me, { token: res.body.token });
    expect(me.status).toBe(200);
    expect(me.body.email).toBe('owner@example.com');
  });

  it('refuses a wrong token with 403 and creates nothing', async () => {
    const res = await callRefused(server, apiCalls.setup, { body: body({ token: 'not-the-token-at-all-xx' }) });
    expect(res.status).toBe(403);
    expect(res.body).toEqual({ statusCode: 403, message: 'setup_token_invalid' });
    expect((await call(server, apiCalls.setup_status)).body).toEqual({ required: true });
  });

  it('answers the rule message key for bad input', async () => {
    const cases: [Partial<SetupRequest>, string][] = [
      [{ email: '' }, 'rules_email_required'],
      [{ email: 'not-an-email' }, 'rules_email_pattern'],
      [{ name: '' }, 'rules_name_required'],
      [{ name: 'R2-D2' }, 'rules_name_pattern'],
      [{ password: '' }, 'rules_password'],
      [{ password: 'short1!' }, 'rules_password_pattern'],
      [{ password: 'onlyletters!!' }, 'rules_password_pattern'],
      [{ password: 'abcdefgh123456789012!' }, 'rules_password_pattern'],
    ];
    for (const [over, key] of cases) {
      const res = await callRefused(server, apiCalls.setup, { body: body(over) });
      expect({ over, status: res.status, body: res.body }).toEqual({ over, status: 400, body: { statusCode: 400, message: key } });
    }
    // Without the fields the contract requires: raw on purpose.
    const missing = await server.request('POST', '/api/auth/setup', { body: { token: readToken() } });
    expect(missing.status).toBe(400);
    expect((await call(server, apiCalls.setup_status)).body).toEqual({ required: true });
  });

  it('refuses a second setup with 409', async () => {
    const second = body({ email: 'second@example.com' });
    await setupMaster(server);
    const res = await callRefused(server, apiCalls.setup, { body: second });
    expect(res.status).toBe(409);
    expect(res.body.message).toBe('setup_already_done');
  });

  it('lets exactly one of several simultaneous setups win', async () => {
    const token = readToken();
    // One call wins and the others are refused: raw, to read every status alike.
    const results = await Promise.all(
      Array.from({ length: 5 }, (_, i) => server.request('POST', '/api/auth/setup', { body: { ...body({ email: `racer${i}@example.com` }), token } })),
    );
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 409)).toHaveLength(4);
  });
});
