import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

/** Where API routes live: the JSON API, the WebDAV tree and the spec's search call on the application host (`GET /llm/search/keyword`). */
const API_URI = /^\/(api|dav|llm)(\/|$)/;

describeEachDialect('the policy list on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let webDir: string;

  beforeAll(async () => {
    // A built web app with many hashed assets, as `npm run build` leaves it.
    webDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-web-'));
    fs.mkdirSync(path.join(webDir, 'assets'));
    fs.writeFileSync(path.join(webDir, 'index.html'), '<!doctype html><div id="root"></div>');
    fs.writeFileSync(path.join(webDir, 'favicon.svg'), '<svg xmlns="http://www.w3.org/2000/svg"/>');
    for (let i = 0; i < 40; i++) fs.writeFileSync(path.join(webDir, 'assets', `chunk-${i}-abc.js`), `console.log(${i})`);
    server = await startServer(dialect, { BOGWAN_WEB_DIR: webDir });
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
    if (webDir) fs.rmSync(webDir, { recursive: true, force: true });
  });

  it('lists API routes only: no static asset or web app file is a listed policy', async () => {
    const res = await call(server, apiCalls.policy, { token: master.token });
    const uris = res.body.map((p) => p.uri);
    expect(uris.filter((uri) => !API_URI.test(uri))).toEqual([]);
    expect(uris.some((uri) => uri.startsWith('/assets'))).toBe(false);
    // The API itself is all there.
    expect(res.body).toContainEqual(expect.objectContaining({ method: 'GET', uri: '/api/policy', level: 2 }));
    expect(res.body).toContainEqual(expect.objectContaining({ method: 'POST', uri: '/api/file/upload' }));
    // WebDAV's routes are API routes: every one registered is listed.
    const dav = server.app.policies.routes.filter((r) => r.method !== 'HEAD' && /^\/dav(\/|$)/.test(r.uri));
    expect(dav.length).toBeGreaterThan(0);
    for (const r of dav) expect(res.body).toContainEqual(expect.objectContaining({ method: r.method, uri: r.uri }));
    // Each row is what the screen shows, nothing internal.
    for (const row of res.body) expect(Object.keys(row).sort()).toEqual(['category', 'description', 'level', 'method', 'name', 'uri']);
  });

  it('still guards the unlisted files with their own policy', async () => {
    // Every registered route keeps a policy for the authorization check, listed or not.
    const assets = server.app.policies.routes.filter((r) => r.uri.startsWith('/assets/'));
    expect(assets.length).toBeGreaterThanOrEqual(40);
    expect(assets.every((r) => r.policy?.unlisted === true && r.policy.level === 0)).toBe(true);
    const asset = await server.request('GET', '/assets/chunk-7-abc.js'); // a static file, outside the JSON API
    expect([asset.status, asset.text]).toEqual([200, 'console.log(7)']);
    // Listed and enforced agree for everything that is listed.
    const listed = server.app.policies.list();
    const enforced = server.app.policies.routes.filter((r) => r.method !== 'HEAD' && !r.policy?.unlisted);
    expect(listed).toHaveLength(enforced.length);
  });
});
