import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterEach, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';

// In-process (inject) checks of mechanisms that need a route the product does not have.
describe('mechanisms', () => {
  const dirs: string[] = [];
  const make = async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-unit-'));
    dirs.push(dir);
    return buildApp(loadConfig({ BOGWAN_DATA_DIR: dir, BOGWAN_WEB_DIR: path.join(dir, 'none'), LOG_LEVEL: 'silent' }));
  };
  afterEach(() => {
    for (const d of dirs.splice(0)) fs.rmSync(d, { recursive: true, force: true });
  });

  it('refuses a route that declared no policy', async () => {
    const app = await make();
    app.get('/api/forgotten', async () => ({ secret: true }));
    const res = await app.inject({ method: 'GET', url: '/api/forgotten' });
    expect(res.statusCode).toBe(403);
    expect(res.json()).toEqual({ statusCode: 403, message: 'no_access_warning' });
    await app.close();
  });

  it('hides the internals of a 5xx', async () => {
    const app = await make();
    app.get('/api/explode', { config: { policy: { category: 'test', name: 'explode', description: 'throws', level: 0 } } }, async () => {
      throw new Error('connection to db.internal:5432 failed for user admin');
    });
    const res = await app.inject({ method: 'GET', url: '/api/explode' });
    expect(res.statusCode).toBe(500);
    expect(res.json()).toEqual({ statusCode: 500, message: 'request_error_message' });
    expect(res.body).not.toContain('db.internal');
    await app.close();
  });

  it('answers malformed JSON and oversized bodies with message keys', async () => {
    const app = await make();
    const bad = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: '{"email":',
    });
    expect(bad.statusCode).toBe(400);
    expect(bad.json()).toEqual({ statusCode: 400, message: 'invalid_request_message' });

    const huge = await app.inject({
      method: 'POST',
      url: '/api/auth/login',
      headers: { 'content-type': 'application/json' },
      payload: JSON.stringify({ email: 'a'.repeat(2_000_000), password: 'x' }),
    });
    expect(huge.statusCode).toBe(413);
    expect(huge.json()).toEqual({ statusCode: 413, message: 'payload_too_large_message' });
    await app.close();
  });

  it('answers 404 with a message key for unknown API routes and methods', async () => {
    const app = await make();
    for (const [method, url] of [
      ['GET', '/api/does-not-exist'],
      ['DELETE', '/api/health'],
      ['GET', '/api'],
      ['POST', '/anything'],
    ] as const) {
      const res = await app.inject({ method, url });
      expect({ method, url, status: res.statusCode, body: res.json() }).toEqual({
        method,
        url,
        status: 404,
        body: { statusCode: 404, message: 'not_found_message' },
      });
    }
    await app.close();
  });
});
