import { Validator } from '@seriousme/openapi-schema-validator';
import * as contracts from '@bogwan/contracts';
import { type ApiCall, apiCalls } from '@bogwan/contracts';
import type { RouteOptions } from 'fastify';
import { afterAll, beforeAll, describe, expect, expectTypeOf, it } from 'vitest';
import { z } from 'zod';
import { call, callRefused, setupMaster, startServer, type TestServer } from './harness.js';

interface Operation {
  operationId?: string;
  summary?: string;
  tags?: string[];
  security?: Record<string, string[]>[];
  responses: Record<string, { content?: Record<string, { schema: { allOf?: { properties?: { message?: { enum?: string[] } } }[] } }> }>;
}
type Document = {
  paths: Record<string, Record<string, Operation>>;
  components: { schemas: Record<string, unknown>; securitySchemes: Record<string, unknown> };
};

function operations(doc: Document): { method: string; path: string; op: Operation }[] {
  return Object.entries(doc.paths).flatMap(([path, ops]) => Object.entries(ops).map(([method, op]) => ({ method: method.toUpperCase(), path, op })));
}

/** The message keys an operation's document lists for a status. */
function listedKeys(doc: Document, operationId: string, status: number): string[] {
  const found = operations(doc).find((o) => o.op.operationId === operationId);
  const schema = found?.op.responses[String(status)]?.content?.['application/json']?.schema;
  return schema?.allOf?.flatMap((part) => part.properties?.message?.enum ?? []) ?? [];
}

/** A schema as JSON Schema, to compare a call's schema with its route's when they are not the same object. */
function shape(schema: unknown, io: 'input' | 'output'): string {
  if (schema === undefined) return 'none';
  return JSON.stringify(z.toJSONSchema(schema as z.ZodType, { io, unrepresentable: 'any', cycles: 'ref' }));
}

const exportNames = new Map<unknown, string>();
for (const [name, value] of Object.entries(contracts)) if (!exportNames.has(value)) exportNames.set(value, name);

/** The `apiCalls` entry a route needs, with the contracts' names of its schemas (`<inline>` for one the contracts do not export). */
function suggestedEntry(name: string, method: string, route: RouteOptions): string {
  const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; response?: Record<string, unknown>; consumes?: string[] };
  const named = (value: unknown) => exportNames.get(value) ?? '<inline>';
  const ok = Object.entries(schema.response ?? {}).find(([status]) => status.startsWith('2'))?.[1];
  const parts = [`method: '${method}'`, `path: '${route.url}'`];
  if (schema.body) parts.push(`body: ${named(schema.body)}`);
  if (schema.querystring) parts.push(`query: ${named(schema.querystring)}`);
  if (ok) parts.push(`response: ${named(ok)}`);
  if (schema.consumes?.includes('multipart/form-data')) parts.push('form: true');
  return `${name}: defineCall({ ${parts.join(', ')} }),`;
}

describe('the OpenAPI document at /api/docs/json', () => {
  let server: TestServer;
  let doc: Document;
  beforeAll(async () => {
    server = await startServer('sqlite');
    const res = await server.request('GET', '/api/docs/json');
    expect(res.status).toBe(200);
    doc = res.body as Document;
  });
  afterAll(async () => {
    await server?.close();
  });

  it('is a valid OpenAPI document, every $ref included', async () => {
    const result = await new Validator().validate(structuredClone(doc) as unknown as Record<string, unknown>);
    expect(result.errors ?? []).toEqual([]);
    expect(result.valid).toBe(true);
    const refs = [...JSON.stringify(doc).matchAll(/"\$ref":"#\/components\/schemas\/([^"]+)"/g)].map((m) => m[1]!);
    expect(refs.length).toBeGreaterThan(0);
    for (const ref of refs) expect(doc.components.schemas, ref).toHaveProperty([ref]);
  });

  it('names, summarises and tags every operation, with its credentials and at least one refusal', () => {
    const ops = operations(doc);
    expect(ops.length).toBeGreaterThan(100);
    const incomplete = ops
      .filter(({ op }) => !op.operationId || !op.summary || !op.tags?.length || !op.security || !Object.keys(op.responses).some((s) => /^4\d\d$/.test(s)))
      .map(({ method, path }) => `${method} ${path}`);
    expect(incomplete).toEqual([]);
    const ids = ops.map(({ op }) => op.operationId);
    expect(ids.filter((id, i) => ids.indexOf(id) !== i)).toEqual([]);
    // The operation's id is its route's policy name.
    const policyNames = new Set(server.app.policies.list().map((p) => p.name));
    expect(ids.filter((id) => !policyNames.has(id!))).toEqual([]);
  });

  it('lists the generic refusals by policy kind and the keys a request schema declares', () => {
    expect(listedKeys(doc, 'trash_list', 401)).toContain('unauthorized_message');
    expect(listedKeys(doc, 'trash_list', 403)).toEqual(expect.arrayContaining(['no_access_warning', 'license_required']));
    expect(listedKeys(doc, 'login', 401)).toEqual([]);
    expect(listedKeys(doc, 'trash_retention_update', 400)).toEqual(expect.arrayContaining(['invalid_request_message', 'trash_retention_invalid']));
    expect(listedKeys(doc, 'file_rename', 423)).toContain('file_locked_warning');
    expect(listedKeys(doc, 'file_rename', 409)).toContain('file_exists_warning');
    expect(doc.components.schemas).toHaveProperty('ErrorBody');
  });

  it('answers refusals with keys the document lists for the operation, and calls through the typed contracts', async () => {
    const anonymous = await callRefused(server, apiCalls.trash_list);
    expect(anonymous.status).toBe(401);
    expect(listedKeys(doc, 'trash_list', 401)).toContain(anonymous.body.message);

    const { token } = await setupMaster(server);
    const invalid = await callRefused(server, apiCalls.trash_retention_update, { token, body: { days: 0 } });
    expect(invalid.status).toBe(400);
    expect(listedKeys(doc, 'trash_retention_update', 400)).toContain(invalid.body.message);

    const saved = await call(server, apiCalls.trash_retention_update, { token, body: { days: 30 } });
    expectTypeOf(saved.body).toEqualTypeOf<{ days: number | null }>();
    expect(saved.body).toEqual({ days: 30 });
    const page = await call(server, apiCalls.trash_list, { token, query: { limit: 10 } });
    expect(page.body).toEqual({ items: [], total: 0 });
    await expect(call(server, apiCalls.trash_delete, { token: 'not-a-token', params: { id: 'x' } })).rejects.toThrow(/answered 401/);
  });

  it('refuses, at compile time, a call whose input does not match its contract', () => {
    // Never run: the compiler checks these lines (a contract change breaks them the same way).
    const typeChecks = async (target: TestServer) => {
      // @ts-expect-error days is a number or null
      await call(target, apiCalls.trash_retention_update, { body: { days: 'thirty' } });
      // @ts-expect-error the path parameter id is required
      await call(target, apiCalls.trash_delete, {});
      // @ts-expect-error the answer has no such field
      void (await call(target, apiCalls.trash_list)).body.nothing;
    };
    expect(typeof typeChecks).toBe('function');
  });

  it('declares the credentials: bearer, refresh cookie, share token, tickets; WebDAV (Basic, not JSON) left out', () => {
    expect(Object.keys(doc.components.securitySchemes).sort()).toEqual(['basic', 'bearer', 'refreshCookie', 'shareToken', 'ticket']);
    const byId = new Map(operations(doc).map(({ op }) => [op.operationId, op]));
    expect(byId.get('trash_list')!.security).toEqual([{ bearer: [] }]);
    expect(byId.get('refresh')!.security).toEqual([{ refreshCookie: [] }]);
    expect(byId.get('share_public')!.security).toEqual([{}, { shareToken: [] }, { bearer: [] }]);
    expect(byId.get('share_public_ticket_download')!.security).toEqual([{ ticket: [] }]);
    expect(byId.get('login')!.security).toEqual([]);
    expect(Object.keys(doc.paths).filter((p) => p === '/dav' || p.startsWith('/dav/'))).toEqual([]);
    // WebDAV routes exist; they are left out on purpose.
    expect(server.app.policies.routes.some((r) => r.uri.startsWith('/dav'))).toBe(true);
  });

  it('has one call in the contracts per documented operation, agreeing with its route on method, path and schemas', () => {
    const registered = (server.app.policies as unknown as { registered: RouteOptions[] }).registered;
    const documented = new Set(operations(doc).map(({ op }) => op.operationId!));
    const calls = apiCalls as Record<string, ApiCall>;
    const disagreements: string[] = [];
    const routed = new Set<string>();
    for (const route of registered) {
      const name = route.config?.policy?.name;
      const method = Array.isArray(route.method) ? route.method[0] : route.method;
      // HEAD twins of GET routes share the GET's call.
      if (!name || !documented.has(name) || method === 'HEAD') continue;
      routed.add(name);
      const call = calls[name];
      if (!call) {
        disagreements.push(`${name}: no call in apiCalls for ${method} ${route.url}; add ${suggestedEntry(name, method!, route)}`);
        continue;
      }
      if (call.method !== method || call.path !== route.url) disagreements.push(`${name}: call ${call.method} ${call.path}, route ${method} ${route.url}`);
      const schema = (route.schema ?? {}) as { body?: unknown; querystring?: unknown; response?: Record<string, unknown>; consumes?: string[] };
      const ok = Object.entries(schema.response ?? {}).find(([status]) => status.startsWith('2'))?.[1];
      const pairs: [string, unknown, unknown, 'input' | 'output'][] = [
        ['body', call.body, schema.body, 'input'],
        ['query', call.query, schema.querystring, 'input'],
        ['response', call.response, ok, 'output'],
      ];
      for (const [part, mine, theirs, io] of pairs) {
        if (mine !== theirs && shape(mine, io) !== shape(theirs, io)) disagreements.push(`${name}: ${part} differs`);
      }
      if (call.form !== Boolean(schema.consumes?.includes('multipart/form-data'))) disagreements.push(`${name}: form differs`);
    }
    for (const name of Object.keys(calls)) if (!routed.has(name)) disagreements.push(`${name}: in apiCalls, no documented route`);
    expect(disagreements).toEqual([]);
  });
});
