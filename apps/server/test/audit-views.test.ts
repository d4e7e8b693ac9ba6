import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lastSeq, recordsOf } from './audit-actions-helpers.js';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { bytesOf, fetchBytes, upload } from './transfer-helpers.js';

// Opening a preview is one `file.view`, however the viewer asks for the bytes; a download one `file.download`.
describeEachDialect('previews and downloads in the audit trail on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  const at = (route: string, path: string) => `/api/file/${route}?path=${encodeURIComponent(path)}`;
  const actionsSince = async (from: number) =>
    (await recordsOf(server, { afterSeq: from, actions: ['file.view', 'file.download'] })).map((r) => [r.action, r.targetPath, r.actorAccountId]);

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    user = await signInAs(server, 'viewer@example.com');
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: '열람', path: '/' } })).status).toBe(200);
    expect((await upload(server, master.token, '/열람', '메모.txt', bytesOf(5000, 'memo'))).status).toBe(200);
    expect((await upload(server, master.token, '/열람', '계약서.pdf', bytesOf(3000, 'pdf'))).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('a text preview (its first bytes, then more) records one view', async () => {
    const from = await lastSeq(server);
    // The text viewer asks for the start of the file; a viewer that reads on asks for later ranges.
    expect((await fetchBytes(server, user.token, at('preview', '/열람/메모.txt'), { range: 'bytes=0-1023' })).status).toBe(206);
    expect((await fetchBytes(server, user.token, at('preview', '/열람/메모.txt'), { range: 'bytes=1024-4999' })).status).toBe(206);
    expect(await actionsSince(from)).toEqual([['file.view', '/열람/메모.txt', user.user._id]]);
  });

  it('a PDF preview (the whole file) records one view, and a 304 revalidation none', async () => {
    const from = await lastSeq(server);
    const whole = await fetchBytes(server, user.token, at('preview', '/열람/계약서.pdf'));
    expect(whole.status).toBe(200);
    expect(whole.bytes.length).toBe(3000);
    expect((await fetchBytes(server, user.token, at('preview', '/열람/계약서.pdf'), { 'if-none-match': whole.headers.get('etag')! })).status).toBe(304);
    expect(await actionsSince(from)).toEqual([['file.view', '/열람/계약서.pdf', user.user._id]]);
  });

  it('a download records file.download (not a view); its resume from a later byte records nothing more', async () => {
    const from = await lastSeq(server);
    expect((await fetchBytes(server, user.token, at('download', '/열람/메모.txt'), { range: 'bytes=0-999' })).status).toBe(206);
    expect((await fetchBytes(server, user.token, at('download', '/열람/메모.txt'), { range: 'bytes=1000-' })).status).toBe(206);
    expect((await fetchBytes(server, user.token, at('download', '/열람/계약서.pdf'))).status).toBe(200);
    expect(await actionsSince(from)).toEqual([
      ['file.download', '/열람/메모.txt', user.user._id],
      ['file.download', '/열람/계약서.pdf', user.user._id],
    ]);
  });
});
