import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

/** A concrete URL for a route pattern (parameters filled with a harmless id). */
const concrete = (uri: string) => uri.replace(/:[a-zA-Z]+/g, '0190f3a4-0000-7000-8000-000000000000').replace(/\*$/, 'x');

describeEachDialect('authorization matrix on $dialect', (dialect) => {
  let server: TestServer;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    await setupMaster(server);
    user = await signInAs(server, 'plain-user@example.com');
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a USER gets 403 from every administrator route, before any body is read', async () => {
    const adminRoutes = server.app.policies
      .list()
      .filter((route) => route.level >= 2 && route.uri.startsWith('/api/'))
      .filter((route) => !['HEAD', 'OPTIONS'].includes(route.method));
    expect(adminRoutes.length).toBeGreaterThan(20);
    const answers: string[] = [];
    for (const route of adminRoutes) {
      // Raw on purpose: every route of the policy table, with an empty body whatever its contract asks.
      const res = await server.request(route.method, concrete(route.uri), {
        token: user.token,
        body: ['GET', 'DELETE'].includes(route.method) ? undefined : {},
      });
      answers.push(`${route.method} ${route.uri} ${res.status}`);
    }
    expect(answers.filter((a) => !a.endsWith(' 403'))).toEqual([]);
  });

  it('no token gets 401 from every signed-in route', async () => {
    const routes = server.app.policies
      .list()
      .filter((route) => route.level >= 1 && route.uri.startsWith('/api/') && !['HEAD', 'OPTIONS'].includes(route.method));
    const answers: string[] = [];
    for (const route of routes) {
      // Raw on purpose, as above: the refusal comes before any input is read.
      const res = await server.request(route.method, concrete(route.uri), { body: ['GET', 'DELETE'].includes(route.method) ? undefined : {} });
      answers.push(`${route.method} ${route.uri} ${res.status}`);
    }
    expect(answers.filter((a) => !a.endsWith(' 401'))).toEqual([]);
  });
});
