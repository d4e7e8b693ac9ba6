import { apiCalls, type CallInput } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lastSeq, recordsOf } from './audit-actions-helpers.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

type Session = { user: { _id: string }; token: string };
type ExportQuery = NonNullable<CallInput<typeof apiCalls.event_export_ticket>['query']>;

// The export the browser's download manager fetches: a single-use address, no bearer token.
describeEachDialect('audit export tickets on $dialect', (dialect) => {
  let server: TestServer;
  let master: Session;
  let member: Session;

  const ticketFor = async (query: ExportQuery, s: Session) => {
    const res = await call(server, apiCalls.event_export_ticket, { token: s.token, query });
    return { status: res.status, url: res.body.url };
  };
  /** Follows an address as a browser would: no Authorization header. */
  const follow = async (url: string) => {
    const res = await fetch(server.url + url);
    return { status: res.status, headers: res.headers, text: await res.text() };
  };
  const jsonLines = (text: string) =>
    text
      .split('\n')
      .filter(Boolean)
      .map((line) => JSON.parse(line) as { actor: { accountId: string | null }; action: string });

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    member = await signInAs(server, 'member@example.com');
    // One record of each account at least: their sign-ins; and a few of the administrator's.
    await call(server, apiCalls.event_list, { token: master.token });
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '감사', path: '/' } })).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a ticket downloads the export once, without the bearer token; the second use is refused', async () => {
    const ticket = await ticketFor({ format: 'jsonl', lang: 'en' }, master);
    expect(ticket.status).toBe(200);
    expect(ticket.url).toMatch(/^\/api\/event\/export\?ticket=/);
    const first = await follow(ticket.url);
    expect(first.status).toBe(200);
    expect(first.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    expect(first.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-.*\.jsonl"$/);
    const actors = new Set(jsonLines(first.text).map((r) => r.actor.accountId));
    expect(actors).toContain(member.user._id);
    expect(actors).toContain(master.user._id);
    expect((await follow(ticket.url)).status).toBe(401);
  });

  it('two requests with one ticket at the same moment: one export', async () => {
    const ticket = await ticketFor({ format: 'csv', lang: 'ko' }, master);
    const answers = await Promise.all([follow(ticket.url), follow(ticket.url), follow(ticket.url)]);
    expect(answers.map((a) => a.status).sort()).toEqual([200, 401, 401]);
  });

  it('a forged or edited ticket is refused, and so is the export without any sign-in', async () => {
    const ticket = await ticketFor({ format: 'jsonl' }, member);
    const value = new URL(ticket.url, server.url).searchParams.get('ticket')!;
    const [payload, signature] = value.split('.');
    const claims = JSON.parse(Buffer.from(payload!, 'base64url').toString('utf8')) as { accountId: string };
    const widened = Buffer.from(JSON.stringify({ ...claims, accountId: master.user._id })).toString('base64url');
    expect((await follow(`/api/event/export?${new URLSearchParams({ ticket: `${widened}.${signature}` })}`)).status).toBe(401);
    expect((await follow('/api/event/export?ticket=nonsense')).status).toBe(401);
    expect((await follow('/api/event/export?format=jsonl')).status).toBe(401);
    // The genuine ticket was not spent by those attempts.
    expect((await follow(ticket.url)).status).toBe(200);
  });

  it('a member’s ticket carries the member’s visibility: parameters added to the address widen nothing', async () => {
    // Another account's records are refused when the ticket is asked for.
    expect((await callRefused(server, apiCalls.event_export_ticket, { token: member.token, query: { format: 'jsonl', actor: master.user._id } })).status).toBe(
      403,
    );
    const ticket = await ticketFor({ format: 'jsonl' }, member);
    const res = await follow(`${ticket.url}&actor=${master.user._id}&format=csv`);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const records = jsonLines(res.text);
    expect(records.length).toBeGreaterThan(0);
    expect(records.every((r) => r.actor.accountId === member.user._id)).toBe(true);
  });

  it('the export by ticket is recorded as the account’s export, with its filter', async () => {
    const from = await lastSeq(server);
    const ticket = await ticketFor({ format: 'csv', lang: 'ko', action: 'file.mkdir', path: '/감사' }, master);
    const res = await follow(ticket.url);
    expect(res.status).toBe(200);
    expect(res.text.split('\r\n').filter(Boolean)).toHaveLength(2);
    const records = await recordsOf(server, { afterSeq: from, actions: ['audit.export'] });
    expect(records).toHaveLength(1);
    expect(records[0]).toMatchObject({ actorAccountId: master.user._id, targetPath: '/감사', params: { format: 'csv', actions: 'file.mkdir' } });
  });

  it('a ticket of an account disabled since is refused', async () => {
    const other = await signInAs(server, 'leaver@example.com');
    const ticket = await ticketFor({ format: 'jsonl' }, other);
    await server.app.db.updateTable('users').set({ status: 'BLOCK' }).where('id', '=', other.user._id).execute();
    expect((await follow(ticket.url)).status).toBe(401);
  });
});
