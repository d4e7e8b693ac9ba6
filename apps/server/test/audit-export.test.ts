import { apiCalls, AUDIT_ACTION_NAMES, type CallInput } from '@bogwan/contracts';
import { afterAll, afterEach, beforeAll, expect, it, vi } from 'vitest';
import { AuditRepo, type NewAuditRecord } from '../src/modules/audit/audit.repo.js';
import { AUDIT_EXPORT_PAGE } from '../src/modules/audit/audit-export.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

type Session = { user: { _id: string }; token: string };
type ExportQuery = NonNullable<CallInput<typeof apiCalls.event_export>['query']>;

function rec(actor: string, i: number, extra: Partial<NewAuditRecord> = {}): NewAuditRecord {
  return {
    actor_kind: 'account',
    actor_id: actor,
    actor_account_id: actor,
    actor_label: null,
    action: 'file.download',
    outcome: 'allowed',
    reason: null,
    target_kind: 'node',
    target_id: `n${i}`,
    target_path: `/보관함/문서 ${i}.pdf`,
    target_label: null,
    params: JSON.stringify({ size: i }),
    ip: '198.51.100.4',
    user_agent: 'Mozilla/5.0',
    ...extra,
  };
}

/** Splits CSV text (RFC 4180, as the export writes it) into rows of cells. */
function parseCsv(text: string): string[][] {
  const rows: string[][] = [];
  let row: string[] = [];
  let cell = '';
  let quoted = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i]!;
    if (quoted) {
      if (c === '"' && text[i + 1] === '"') {
        cell += '"';
        i++;
      } else if (c === '"') quoted = false;
      else cell += c;
    } else if (c === '"') quoted = true;
    else if (c === ',') {
      row.push(cell);
      cell = '';
    } else if (c === '\r' && text[i + 1] === '\n') {
      row.push(cell);
      rows.push(row);
      row = [];
      cell = '';
      i++;
    } else cell += c;
  }
  return rows;
}

describeEachDialect('audit export on $dialect', (dialect) => {
  let server: TestServer;
  let master: Session;
  let minji: Session;
  const exportOf = (query: ExportQuery, s: Session) => call(server, apiCalls.event_export, { token: s.token, query });

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    minji = await signInAs(server, 'minji@example.com');
    await server.app.db.updateTable('users').set({ name: '김민지' }).where('id', '=', minji.user._id).execute();
    await new AuditRepo(server.app.db).append([
      rec(minji.user._id, 1, {
        target_path: '/보관함/=HYPERLINK("http://evil.example")',
        actor_label: '+cmd|calc',
        user_agent: '@SUM(A1)',
        target_label: '-2+3',
        params: JSON.stringify({ note: 'a,b "c"\nd' }),
      }),
      rec(minji.user._id, 2, { target_label: '\tTab', reason: null }),
      rec(master.user._id, 3, { action: 'file.view' }),
    ]);
  });
  afterAll(async () => {
    await server?.close();
  });
  afterEach(() => {
    vi.restoreAllMocks();
  });

  it('writes CSV with a BOM, headers in Korean (or English), and cells a spreadsheet will not run', async () => {
    const res = await exportOf({ actor: minji.user._id, action: 'file.download' }, master);
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('text/csv; charset=utf-8');
    expect(res.headers.get('content-disposition')).toMatch(/^attachment; filename="audit-.*\.csv"$/);
    // The raw bytes, to see the byte order mark the text of the answer hides.
    const bytes = Buffer.from(
      await (
        await fetch(`${server.url}/api/event/export?actor=${minji.user._id}&action=file.download`, { headers: { authorization: `Bearer ${master.token}` } })
      ).arrayBuffer(),
    );
    expect([...bytes.subarray(0, 3)]).toEqual([0xef, 0xbb, 0xbf]);
    const rows = parseCsv(res.text.replace(/^\uFEFF/, ''));
    expect(rows[0]).toEqual([
      '번호',
      '시각',
      '행위자 유형',
      '행위자',
      '계정 이름',
      '계정 이메일',
      '동작',
      '동작 이름',
      '결과',
      '사유',
      '대상 유형',
      '대상 ID',
      '경로',
      '대상 이름',
      '세부 정보',
      'IP 주소',
      '사용자 에이전트',
    ]);
    expect(rows).toHaveLength(3);
    const [second, first] = [rows[1]!, rows[2]!];
    expect(second[13]).toBe("'\tTab");
    expect(first).toEqual([
      expect.any(String),
      expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      'account',
      "'+cmd|calc",
      '김민지',
      'minji@example.com',
      'file.download',
      '다운로드',
      'allowed',
      '',
      'node',
      'n1',
      '/보관함/=HYPERLINK("http://evil.example")',
      "'-2+3",
      JSON.stringify({ note: 'a,b "c"\nd' }),
      '198.51.100.4',
      "'@SUM(A1)",
    ]);
    const english = parseCsv((await exportOf({ format: 'csv', lang: 'en' }, minji)).text.replace(/^\uFEFF/, ''));
    expect(english[0]!.slice(0, 4)).toEqual(['Seq', 'Time', 'Actor kind', 'Actor']);
    // The action's name in the export's language, as the activity screens name it (one source: the contract).
    expect(english[0]!.slice(6, 8)).toEqual(['Action', 'Action name']);
    expect(
      english
        .slice(1)
        .filter((row) => row[6] === 'file.download')
        .every((row) => row[7] === AUDIT_ACTION_NAMES['file.download'].en),
    ).toBe(true);
  });

  it('writes JSON lines of the visible records only', async () => {
    const res = await exportOf({ format: 'jsonl' }, minji);
    const english = (await exportOf({ format: 'jsonl', lang: 'en' }, minji)).text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l) as { action: string; actionName: string });
    expect(english.find((l) => l.action === 'file.download')?.actionName).toBe('Downloaded');
    expect(res.status).toBe(200);
    expect(res.headers.get('content-type')).toBe('application/x-ndjson; charset=utf-8');
    const lines = res.text
      .trimEnd()
      .split('\n')
      .map((l) => JSON.parse(l));
    expect(lines.length).toBeGreaterThanOrEqual(3);
    expect(new Set(lines.map((l) => l.actor.accountId))).toEqual(new Set([minji.user._id]));
    expect(lines.find((l) => l.target?.id === 'n1')).toMatchObject({
      action: 'file.download',
      actionName: '다운로드',
      actor: { name: '김민지' },
      params: { note: 'a,b "c"\nd' },
      ip: '198.51.100.4',
    });
    expect((await callRefused(server, apiCalls.event_export, { token: minji.token, query: { format: 'jsonl', actor: master.user._id } })).status).toBe(403);
    // Raw on purpose: a format the contract's type does not allow.
    expect((await server.request('GET', '/api/event/export?format=xml', { token: minji.token })).status).toBe(400);
  });

  it('streams 100,000 rows: the first bytes leave before most of the rows are read', async () => {
    const repo = new AuditRepo(server.app.db);
    for (let b = 0; b < 100; b++) await repo.append(Array.from({ length: 1000 }, (_, i) => rec(minji.user._id, b * 1000 + i)));
    const pages = vi.spyOn(AuditRepo.prototype, 'page');
    // Raw fetch on purpose: the answer is read as a stream, chunk by chunk.
    const res = await fetch(`${server.url}/api/event/export?format=csv&action=file.download&actor=${minji.user._id}`, {
      headers: { authorization: `Bearer ${master.token}` },
    });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    const first = await reader.read();
    expect(first.done).toBe(false);
    const readWhenFirstArrived = pages.mock.calls.length;
    let lines = 0;
    let tail = '';
    for (let chunk = first; !chunk.done; chunk = await reader.read()) {
      const text = tail + Buffer.from(chunk.value).toString('latin1');
      const parts = text.split('\r\n');
      tail = parts.pop()!;
      lines += parts.length;
    }
    const expectedPages = Math.ceil(100_002 / AUDIT_EXPORT_PAGE);
    expect(readWhenFirstArrived).toBeLessThan(expectedPages / 4);
    expect(pages.mock.calls.length).toBeGreaterThanOrEqual(expectedPages);
    expect(lines).toBe(1 + 100_002);
  }, 300_000);
});
