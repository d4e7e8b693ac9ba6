import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';

const BOUNDARY = '----bogwan-test-boundary';
const WEBHOOK_ACCESS_TOKEN = 'multipart-secret-0123456789';

/** A multipart body: the given parts, each `[name, value, fileName?]`; `close: false` leaves the closing boundary off. */
function multipart(parts: [string, Buffer | string, string?][], close = true): Buffer {
  const pieces: Buffer[] = [];
  for (const [name, value, fileName] of parts) {
    const disposition = fileName === undefined ? `form-data; name="${name}"` : `form-data; name="${name}"; filename="${fileName}"`;
    const type = fileName === undefined ? '' : 'Content-Type: application/octet-stream\r\n';
    pieces.push(Buffer.from(`--${BOUNDARY}\r\nContent-Disposition: ${disposition}\r\n${type}\r\n`), Buffer.from(value), Buffer.from('\r\n'));
  }
  if (close) pieces.push(Buffer.from(`--${BOUNDARY}--\r\n`));
  return Buffer.concat(pieces);
}

/** The malformed bodies every multipart route must answer with 400 (never 5xx). */
const MALFORMED: { what: string; contentType: string | undefined; body: Buffer | undefined }[] = [
  { what: 'no body at all', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: undefined },
  { what: 'a missing boundary', contentType: 'multipart/form-data', body: multipart([['file', 'hello', 'a.txt']]) },
  { what: 'an empty boundary', contentType: 'multipart/form-data; boundary=', body: multipart([['file', 'hello', 'a.txt']]) },
  {
    what: 'a truncated body',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: multipart([['file', 'hello world', 'a.txt']], false).subarray(0, 90),
  },
  {
    what: 'a body without its closing boundary',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: multipart([['file', 'hello world', 'a.txt']], false),
  },
  { what: 'the wrong content type (JSON)', contentType: 'application/json', body: Buffer.from('{"file":"hello"}') },
  { what: 'the wrong content type (plain text)', contentType: 'text/plain', body: Buffer.from('hello') },
  { what: 'no content type', contentType: undefined, body: Buffer.from('hello') },
  { what: 'an empty file', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: multipart([['file', Buffer.alloc(0), 'empty.xlsx']]) },
  { what: 'no file part', contentType: `multipart/form-data; boundary=${BOUNDARY}`, body: multipart([['path', '/']]) },
  {
    what: 'garbage',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: Buffer.from('\u0000\u00ff garbage \r\n--- not a part \r\n\r\n\u0001'.repeat(40), 'latin1'),
  },
  {
    what: 'a part without headers',
    contentType: `multipart/form-data; boundary=${BOUNDARY}`,
    body: Buffer.from(`--${BOUNDARY}\r\n\r\nhello\r\n--${BOUNDARY}--\r\n`),
  },
];

describeEachDialect('malformed multipart bodies on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let webhookToken: string;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    const admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Inbox', path: '/' } });
    webhookToken = 'multipart-hook';
    await call(server, apiCalls.webhook_create, {
      token: admin.token,
      body: { title: 'scanner', description: '', token: webhookToken, accessToken: WEBHOOK_ACCESS_TOKEN, path: '/Inbox' },
    });
  });
  afterAll(async () => {
    await server?.close();
  });

  /** Where and how each multipart route is called by its rightful caller. */
  const callers = (): Record<string, { path: string; authorization: string }> => ({
    'POST /api/user/excel': { path: '/api/user/excel', authorization: `Bearer ${master.token}` },
    'POST /api/user/profile/:id': { path: `/api/user/profile/${master.user._id}`, authorization: `Bearer ${master.token}` },
    'POST /api/file/upload': { path: '/api/file/upload', authorization: `Bearer ${master.token}` },
    'POST /api/webhooks/incoming/:token': { path: `/api/webhooks/incoming/${webhookToken}`, authorization: `Bearer ${WEBHOOK_ACCESS_TOKEN}` },
  });

  it('knows how to call every route that takes a multipart body', () => {
    const multipartRoutes = server.app.policies.routes.filter((r) => r.consumes.includes('multipart/form-data')).map((r) => `${r.method} ${r.uri}`);
    expect(multipartRoutes.length).toBeGreaterThanOrEqual(3);
    // A new multipart route must be added to `callers` so the walk below covers it.
    expect(multipartRoutes.sort()).toEqual(Object.keys(callers()).sort());
  });

  it('answers 400 with a message key, never 5xx, to every malformed body on every multipart route', async () => {
    const answers: string[] = [];
    for (const [route, caller] of Object.entries(callers())) {
      for (const { what, contentType, body } of MALFORMED) {
        const headers: Record<string, string> = { authorization: caller.authorization };
        if (contentType !== undefined) headers['content-type'] = contentType;
        // Raw on purpose: malformed bodies and content types no typed call sends.
        // A server that never answers is as wrong as a 500: each call gets 15 s.
        const res = await fetch(`${server.url}${caller.path}`, { method: 'POST', headers, body, signal: AbortSignal.timeout(15_000) }).catch(
          (error: unknown) => ({ status: `no answer (${String(error)})`, text: async () => '' }),
        );
        const text = await res.text();
        let message: unknown;
        try {
          message = (JSON.parse(text) as { message?: unknown }).message;
        } catch {
          message = undefined;
        }
        answers.push(
          `${route} with ${what}: ${res.status} ${typeof message === 'string' && /^[a-z0-9_]+$/.test(message) ? 'key' : `no key (${text.slice(0, 80)})`}`,
        );
      }
    }
    expect(answers.filter((a) => !a.endsWith(': 400 key'))).toEqual([]);
  });

  it('still accepts a well-formed body after the malformed ones', async () => {
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('scanned page')]), 'scan.txt');
    const res = await call(server, apiCalls.webhook_incoming_call, { params: { token: webhookToken }, token: WEBHOOK_ACCESS_TOKEN, body: form });
    expect(res.status).toBe(200);
  });
});
