import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startServer, type TestServer } from './harness.js';

describe('serving the web app', () => {
  let server: TestServer;
  let webDir: string;
  beforeAll(async () => {
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'assets', 'index-abc123.js'), 'console.log(1)');
    server = await startServer('sqlite', { BOGWAN_WEB_DIR: webDir });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('answers index.html for app paths, revalidated, with the app CSP; 404 (still the app) for any other path', async () => {
    const pages = [
      '/',
      '/en',
      '/en/',
      '/storage',
      '/storage/팀/보고서.hwp',
      '/en/auth/login',
      '/share',
      '/share/abc123',
      '/user/kim@example.com',
      '/en/my-trash',
      '/trash',
    ];
    const unknown = ['/no/such/page', '/en/nope', '/homes', '/share/abc/extra', '/user', '/en/en/home'];
    for (const p of [...pages, ...unknown]) {
      const res = await server.request('GET', encodeURI(p));
      expect({ p, status: res.status }).toEqual({ p, status: pages.includes(p) ? 200 : 404 });
      expect(res.text).toContain('<div id="root">');
      expect(res.headers.get('cache-control')).toBe('no-cache');
      expect(res.headers.get('content-security-policy')).toContain("script-src 'self'");
      expect(res.headers.get('x-content-type-options')).toBe('nosniff');
    }
  });

  it('serves hashed assets with long-lived caching and 404s missing ones', async () => {
    const asset = await server.request('GET', '/assets/index-abc123.js');
    expect(asset.status).toBe(200);
    expect(asset.headers.get('cache-control')).toBe('public, max-age=31536000, immutable');
    const missing = await server.request('GET', '/assets/index-gone.js');
    expect(missing.status).toBe(404);
  });

  it('never answers the app for API paths', async () => {
    // Raw: no such route, so no contract.
    const res = await server.request('GET', '/api/unknown');
    expect(res.status).toBe(404);
    expect(res.body).toEqual({ statusCode: 404, message: 'not_found_message' });
  });
});
