import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { lastSeq, recordsOf } from './audit-actions-helpers.js';
import { signInAs } from './files-helpers.js';
import { dialects, setupMaster, startServer, type TestServer } from './harness.js';
import { publicShare } from './sharing-helpers.js';
import { bytesOf, upload } from './transfer-helpers.js';

// Share links, their visitors and notices in the audit trail.
describe.each(dialects())('audit records of sharing on $dialect', ({ dialect, skip }) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let owner: Awaited<ReturnType<typeof signInAs>>;
  const run = it.skipIf(skip);

  beforeAll(async () => {
    if (skip) return;
    server = await startServer(dialect);
    master = await setupMaster(server);
    owner = await signInAs(server, 'owner@example.com');
    expect((await server.request('POST', '/api/file', { token: master.token, body: { name: '공유', path: '/' } })).status).toBe(200);
    expect((await upload(server, owner.token, '/공유', '안내문.txt', bytesOf(64, 'notice'))).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  run('records a link created, changed and revoked, and each visitor download and preview with the link as actor', async () => {
    const pub = publicShare(server);
    const node = await server.app.fileTree.resolve('/공유/안내문.txt');
    const from = await lastSeq(server);
    const made = await server.request('POST', '/api/share', { token: owner.token, body: { scope: 'anyone', path: '/공유/안내문.txt', preview: true } });
    expect(made.status).toBe(200);
    const link = made.body as { _id: string; key: string };
    expect((await pub.download(link.key)).status).toBe(200);
    expect((await pub.download(link.key, '/', { route: 'preview' })).status).toBe(200);
    expect((await server.request('PUT', `/api/share/${link._id}`, { token: owner.token, body: { scope: 'anyone', password: 'open sesame 1' } })).status).toBe(200);
    expect((await pub.unlock(link.key, 'wrong words')).status).toBe(401);
    expect((await server.request('DELETE', `/api/share/${link._id}`, { token: owner.token })).status).toBeLessThan(300);

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.outcome, r.actorKind, r.targetPath])).toEqual([
      ['share.create', 'allowed', 'account', '/공유/안내문.txt'],
      ['share.download', 'allowed', 'share_link', '/공유/안내문.txt'],
      ['file.view', 'allowed', 'share_link', '/공유/안내문.txt'],
      ['share.update', 'allowed', 'account', '/공유/안내문.txt'],
      ['share.unlock_failed', 'refused', 'share_link', null],
      ['share.revoke', 'allowed', 'account', '/공유/안내문.txt'],
    ]);
    expect(records[0]).toMatchObject({ actorAccountId: owner.user._id, targetId: node!.id, params: { shareId: link._id, scope: 'anyone', password: false } });
    // A visitor without an account: the link is the actor, with the visitor's address.
    expect(records[1]).toMatchObject({ actorId: link._id, actorAccountId: null, targetId: node!.id, params: { shareId: link._id, size: 64 }, ip: '127.0.0.1' });
    expect(records[3]!.params).toMatchObject({ password: true });
    expect(records[4]).toMatchObject({ reason: 'share_password_wrong', actorId: link._id, targetKind: 'share', targetId: link._id });
    // No record carries the link's key or password.
    expect(JSON.stringify(records)).not.toContain(link.key);
    expect(JSON.stringify(records)).not.toContain('open sesame');
  });

  run('records secure-folder requests rejected and expired (the expiry by the server)', async () => {
    expect((await server.request('POST', '/api/file', { token: master.token, body: { name: '금고', path: '/공유' } })).status).toBe(200);
    expect((await upload(server, master.token, '/공유/금고', '계약.txt', bytesOf(20, 'contract'))).status).toBe(200);
    expect((await server.request('PUT', '/api/file/lock', { token: master.token, body: { path: '/공유/금고', lock: true } })).status).toBe(200);
    const ask = () => server.request('POST', '/api/request', { token: owner.token, body: { type: 'download', reason: '감사', paths: ['/공유/금고/계약.txt'] } });
    const from = await lastSeq(server);
    const first = await ask();
    expect(first.status).toBe(200);
    expect((await server.request('PUT', `/api/request/${first.body._id}`, { token: master.token, body: { action: 'reject', reason: '불필요' } })).status).toBe(200);
    const second = await ask();
    expect(second.status).toBe(200);
    await server.app.db.updateTable('requests').set({ expires_at: new Date(Date.now() - 1000).toISOString() }).where('id', '=', second.body._id).execute();
    // Reading the requests expires what is due.
    expect((await server.request('GET', '/api/request?box=mine', { token: owner.token })).status).toBe(200);

    const records = await recordsOf(server, { afterSeq: from, actions: ['request.create', 'request.reject', 'request.expire'] });
    expect(records.map((r) => [r.action, r.targetId, r.targetPath, r.actorKind, r.actorAccountId])).toEqual([
      ['request.create', first.body._id, '/공유/금고/계약.txt', 'account', owner.user._id],
      ['request.reject', first.body._id, '/공유/금고/계약.txt', 'account', master.user._id],
      ['request.create', second.body._id, '/공유/금고/계약.txt', 'account', owner.user._id],
      ['request.expire', second.body._id, '/공유/금고/계약.txt', 'system', null],
    ]);
    expect(records[1]!.params).toMatchObject({ status: 'REJECTED', decisionReason: '불필요', requesterId: owner.user._id });
    expect(records[3]).toMatchObject({ ip: null, userAgent: null });
  });

  run('records a notice written and deleted', async () => {
    const from = await lastSeq(server);
    const made = await server.request('POST', '/api/notice', { token: master.token, body: { title: '점검', content: '토요일' } });
    expect(made.status).toBe(200);
    expect((await server.request('DELETE', `/api/notice/${made.body._id}`, { token: master.token })).status).toBe(204);
    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.targetKind, r.targetId, r.actorAccountId])).toEqual([
      ['notice.create', 'notice', made.body._id, master.user._id],
      ['notice.delete', 'notice', made.body._id, master.user._id],
    ]);
  });
});
