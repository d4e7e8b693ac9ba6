import { afterAll, beforeAll, expect, it } from 'vitest';
import { apiCalls } from '@bogwan/contracts';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

describeEachDialect('route policies on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('every registered route declares a policy', () => {
    const routes = server.app.policies.routes;
    expect(routes.length).toBeGreaterThan(5);
    const missing = routes.filter((r) => r.policy === undefined).map((r) => `${r.method} ${r.uri}`);
    expect(missing).toEqual([]);
    for (const r of routes) {
      expect(r.policy!.category).toMatch(/^[a-z_]+$/);
      expect(r.policy!.name).toMatch(/^[a-z_]+$/);
      expect(r.policy!.description.length).toBeGreaterThan(5);
      expect([0, 1, 2, 3]).toContain(r.policy!.level);
    }
  });

  it('every route above level 0 refuses a caller without a token', async () => {
    const guarded = server.app.policies.routes.filter((r) => r.policy!.level > 0 && r.method !== 'HEAD');
    expect(guarded.length).toBeGreaterThan(0);
    for (const r of guarded) {
      // Every route, contract or not, with placeholder parameters and an empty body: raw on purpose.
      const uri = r.uri.replace(/:[^/]+/g, 'x').replace(/\*/g, 'x');
      const res = await server.request(r.method, uri, { body: r.method === 'GET' ? undefined : {} });
      expect({ route: `${r.method} ${r.uri}`, status: res.status }).toEqual({ route: `${r.method} ${r.uri}`, status: 401 });
    }
  });

  it('serves the policy list that the check enforces', async () => {
    const res = await call(server, apiCalls.policy, { token: master.token });
    expect(res.status).toBe(200);
    expect(res.body).toContainEqual({
      category: 'system',
      name: 'policy',
      description: expect.any(String),
      method: 'GET',
      uri: '/api/policy',
      level: 2,
    });
    expect(res.body).toContainEqual(expect.objectContaining({ method: 'POST', uri: '/api/auth/login', level: 0 }));
    expect(res.body.some((p) => p.method === 'HEAD')).toBe(false);
  });

  it('publishes the OpenAPI document at /api/docs', async () => {
    // The documentation pages are not calls of the API: no contract describes them.
    const ui = await server.request('GET', '/api/docs');
    expect(ui.status).toBe(200);
    const doc = await server.request('GET', '/api/docs/json');
    expect(doc.status).toBe(200);
    expect(doc.body.openapi).toMatch(/^3\./);
    expect(Object.keys(doc.body.paths)).toEqual(expect.arrayContaining(['/api/auth/setup', '/api/auth/login', '/api/health']));
  });
});
