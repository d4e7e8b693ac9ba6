import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lastSeq, recordsOf } from './audit-actions-helpers.js';
import { makeFile, makeFolder, makeUser } from './factories.js';
import { call, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { publicShare } from './sharing-helpers.js';
import { bytesOf } from './transfer-helpers.js';

// Share links, their visitors and notices in the audit trail.
describeEachDialect('audit records of sharing on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('records a link created, changed and revoked, and each visitor download and preview with the link as actor', async () => {
    const owner = await makeUser(server);
    const root = await makeFolder(server, master.token);
    const notice = (await makeFile(server, owner.token, root.path, { name: '안내문.txt', bytes: bytesOf(64, 'notice') })).path;
    const pub = publicShare(server);
    const node = await server.app.fileTree.resolve(notice);
    const from = await lastSeq(server);
    const made = await call(server, apiCalls.share_create, { token: owner.token, body: { scope: 'anyone', path: notice, preview: true } });
    expect(made.status).toBe(200);
    const link = made.body;
    expect((await pub.download(link.key)).status).toBe(200);
    expect((await pub.download(link.key, '/', { route: 'preview' })).status).toBe(200);
    expect(
      (await call(server, apiCalls.share_update, { token: owner.token, params: { id: link._id }, body: { scope: 'anyone', password: 'open sesame 1' } }))
        .status,
    ).toBe(200);
    expect((await pub.unlock(link.key, 'wrong words')).status).toBe(401);
    expect((await call(server, apiCalls.share_delete, { token: owner.token, params: { id: link._id } })).status).toBeLessThan(300);

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.outcome, r.actorKind, r.targetPath])).toEqual([
      ['share.create', 'allowed', 'account', notice],
      ['share.download', 'allowed', 'share_link', notice],
      ['file.view', 'allowed', 'share_link', notice],
      ['share.update', 'allowed', 'account', notice],
      ['share.unlock_failed', 'refused', 'share_link', null],
      ['share.revoke', 'allowed', 'account', notice],
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

  it('records secure-folder requests rejected and expired (the expiry by the server)', async () => {
    const owner = await makeUser(server);
    const root = await makeFolder(server, master.token);
    const vault = await makeFolder(server, master.token, { parent: root.path, name: '금고' });
    const contract = (await makeFile(server, master.token, vault.path, { name: '계약.txt', bytes: bytesOf(20, 'contract') })).path;
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: vault.path, lock: true } })).status).toBe(200);
    const ask = () => call(server, apiCalls.request_create, { token: owner.token, body: { type: 'download', reason: '감사', paths: [contract] } });
    const from = await lastSeq(server);
    const first = await ask();
    expect(first.status).toBe(200);
    expect(
      (await call(server, apiCalls.request_update, { token: master.token, params: { id: first.body._id }, body: { action: 'reject', reason: '불필요' } }))
        .status,
    ).toBe(200);
    const second = await ask();
    expect(second.status).toBe(200);
    await server.app.db
      .updateTable('requests')
      .set({ expires_at: new Date(Date.now() - 1000).toISOString() })
      .where('id', '=', second.body._id)
      .execute();
    // Reading the requests expires what is due.
    expect((await call(server, apiCalls.request_list, { token: owner.token, query: { box: 'mine' } })).status).toBe(200);

    const records = await recordsOf(server, { afterSeq: from, actions: ['request.create', 'request.reject', 'request.expire'] });
    expect(records.map((r) => [r.action, r.targetId, r.targetPath, r.actorKind, r.actorAccountId])).toEqual([
      ['request.create', first.body._id, contract, 'account', owner.user._id],
      ['request.reject', first.body._id, contract, 'account', master.user._id],
      ['request.create', second.body._id, contract, 'account', owner.user._id],
      ['request.expire', second.body._id, contract, 'system', null],
    ]);
    expect(records[1]!.params).toMatchObject({ status: 'REJECTED', decisionReason: '불필요', requesterId: owner.user._id });
    expect(records[3]).toMatchObject({ ip: null, userAgent: null });
  });

  it('records a notice written and deleted', async () => {
    const from = await lastSeq(server);
    const made = await call(server, apiCalls.notice_create, { token: master.token, body: { title: '점검', content: '토요일' } });
    expect(made.status).toBe(200);
    expect((await call(server, apiCalls.notice_delete, { token: master.token, params: { id: made.body._id } })).status).toBe(204);
    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.targetKind, r.targetId, r.actorAccountId])).toEqual([
      ['notice.create', 'notice', made.body._id, master.user._id],
      ['notice.delete', 'notice', made.body._id, master.user._id],
    ]);
  });
});
