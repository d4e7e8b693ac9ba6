import { apiCalls, type CreateRequest, type RequestActionBody, type UpdateShareRequest } from '@bogwan/contracts';
import { sql } from 'kysely';
import type { Socket } from 'socket.io-client';
import { afterAll, beforeAll, expect, it, vi } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { eventually, publicShare } from './sharing-helpers.js';
import { connect, next } from './sockets.js';
import { bytesOf, fetchBytes, readZip, upload } from './transfer-helpers.js';
import { recordsOf } from './audit-actions-helpers.js';

describeEachDialect('secure folders and requests on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  let user: Awaited<ReturnType<typeof signInAs>>;
  let other: Awaited<ReturnType<typeof signInAs>>;
  const plan = bytesOf(200_000, 'plan');
  const sockets: Socket[] = [];

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com');
    other = await signInAs(server, 'other@example.com');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Vault', path: '/' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Secret', path: '/Vault' } });
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Inner', path: '/Vault/Secret' } });
    expect((await upload(server, master.token, '/Vault/Secret', 'plan.bin', plan)).status).toBe(200);
    expect((await upload(server, master.token, '/Vault/Secret/Inner', 'deep.txt', Buffer.from('deep'))).status).toBe(200);
    expect((await upload(server, master.token, '/Vault', 'open.txt', Buffer.from('open'))).status).toBe(200);
    // Locking needs LOCK: a USER does not hold it by default.
    expect((await callRefused(server, apiCalls.file_lock, { token: user.token, body: { path: '/Vault/Secret', lock: true } })).status).toBe(403);
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Vault/Secret', lock: true } })).body.lock).toBe(true);
  });
  afterAll(async () => {
    for (const socket of sockets) socket.disconnect();
    await server?.close();
  });

  /** A request's fields; a download with a reason unless given. */
  type Asked = Partial<CreateRequest> & Pick<CreateRequest, 'paths'>;
  const asking = (body: Asked) => ({ type: 'download' as const, reason: '감사 자료 제출', ...body });
  const ask = (body: Asked, token = user.token) => call(server, apiCalls.request_create, { token, body: asking(body) });
  const askRefused = (body: Asked, token = user.token) => callRefused(server, apiCalls.request_create, { token, body: asking(body) });
  type Action = RequestActionBody['action'];
  const act = (id: string, action: Action, token: string, reason?: string) =>
    call(server, apiCalls.request_update, { token, params: { id }, body: { action, reason } });
  const actRefused = (id: string, action: Action, token: string, reason?: string) =>
    callRefused(server, apiCalls.request_update, { token, params: { id }, body: { action, reason } });
  /** Decisions racing each other: one wins and the rest are refused, so raw, to read every status alike. */
  const race = (id: string, action: Action, token: string, reason?: string) => server.request('PUT', `/api/request/${id}`, { token, body: { action, reason } });
  const box = (token: string, which: 'approve' | 'mine') => call(server, apiCalls.request_list, { token, query: { box: which } });
  const secureStatus = (path: string) => call(server, apiCalls.request_secure_status, { token: user.token, query: { path } });
  const download = (path: string, token = user.token) => fetchBytes(server, token, `/api/file/download?path=${encodeURIComponent(path)}`);
  const preview = (path: string, token = user.token) => fetchBytes(server, token, `/api/file/preview?path=${encodeURIComponent(path)}`);
  const messageOf = (res: { bytes: Buffer }) => (JSON.parse(res.bytes.toString()) as { message: string }).message;
  const approved = async (body: Asked, token = user.token) => {
    const id = (await ask(body, token)).body._id;
    expect((await act(id, 'approve', master.token)).body.status).toBe('APPROVED');
    return id;
  };

  it('refuses the bytes of a locked folder through every route without an approval', async () => {
    for (const token of [user.token, admin.token, master.token]) {
      const res = await download('/Vault/Secret/plan.bin', token);
      expect(res.status).toBe(403);
      expect(messageOf(res)).toBe('secure_approval_required');
    }
    expect(messageOf(await download('/Vault/Secret/Inner/deep.txt'))).toBe('secure_approval_required');
    expect(messageOf(await preview('/Vault/Secret/plan.bin'))).toBe('secure_approval_required');
    // Zips: the locked folder itself, its parent, and a selection holding it.
    expect(messageOf(await download('/Vault/Secret'))).toBe('secure_approval_required');
    expect(messageOf(await download('/Vault'))).toBe('secure_approval_required');
    const selection = await fetchBytes(
      server,
      user.token,
      `/api/file/download?paths=${encodeURIComponent('/Vault/open.txt')}&paths=${encodeURIComponent('/Vault/Secret')}`,
    );
    expect(messageOf(selection)).toBe('secure_approval_required');
    // Ranges are bytes too.
    const range = await fetchBytes(server, user.token, `/api/file/download?path=${encodeURIComponent('/Vault/Secret/plan.bin')}`, { range: 'bytes=0-9' });
    expect(range.status).toBe(403);
    // What lies outside the lock is untouched.
    expect((await download('/Vault/open.txt')).bytes.toString()).toBe('open');

    // The share page: a link on the unlocked parent lists the locked folder but never serves its bytes.
    const pub = publicShare(server);
    const link = (await call(server, apiCalls.share_create, { token: user.token, body: { path: '/Vault', scope: 'anyone' } })).body;
    expect((await pub.list(link.key)).body.items).toEqual(expect.arrayContaining([expect.objectContaining({ name: 'Secret', lock: true })]));
    expect((await pub.download(link.key, '/Secret/plan.bin')).message).toBe('secure_approval_required');
    expect((await pub.download(link.key, '/Secret')).message).toBe('secure_approval_required');
    // A zip of the whole link leaves the locked folder out: a visitor cannot ask for its approval.
    const whole = await pub.download(link.key);
    expect(whole.status).toBe(200);
    expect(readZip(whole.bytes).map((e) => e.name)).toEqual(['Vault/', 'Vault/open.txt']);
    expect((await pub.download(link.key, '/open.txt')).bytes.toString()).toBe('open');
    // A link inside the locked folder cannot even be made without an approval.
    const inside = await callRefused(server, apiCalls.share_create, { token: user.token, body: { path: '/Vault/Secret/plan.bin', scope: 'anyone' } });
    expect(inside.body).toEqual({ statusCode: 403, message: 'secure_share_approval_required' });
    expect((await secureStatus('/Vault/Secret/plan.bin')).body).toEqual({
      secure: true,
      holdsSecure: false,
      downloadApproved: false,
    });
    expect((await secureStatus('/Vault')).body).toMatchObject({ secure: false, holdsSecure: true });
  });

  it('a request is checked: a secure path, the permission, a reason', async () => {
    expect((await askRefused({ paths: ['/Vault/open.txt'] })).body.message).toBe('request_not_secure');
    expect((await askRefused({ paths: ['/Vault/Secret/plan.bin'], reason: '  ' })).body.message).toBe('request_reason_required');
    expect((await askRefused({ paths: ['/Vault/Secret/none.bin'] })).status).toBe(404);
    expect((await askRefused({ paths: ['/Vault/Secret/plan.bin'], downloadLimit: 0 })).status).toBe(400);
    expect((await askRefused({ type: 'share', paths: ['/Vault'] })).body.message).toBe('request_not_secure');
    await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: '/Vault/Secret', users: [{ entity: other.user._id, permissions: ['READ'] }] },
    });
    expect((await askRefused({ paths: ['/Vault/Secret/plan.bin'] }, other.token)).status).toBe(403);
    await call(server, apiCalls.resource_update, { token: master.token, body: { path: '/Vault/Secret', users: [{ entity: other.user._id, remove: true }] } });
  });

  it('request, approval by a security manager (notified live), one download, then none', async () => {
    const managerSocket = await connect(server.url, { token: admin.token });
    sockets.push(managerSocket.socket);
    const arrived = next<{ key: string; params: Record<string, unknown>; level: number }>(managerSocket.socket, 'notification');
    const hooks = vi.spyOn(server.app.webhooks, 'emit');
    const created = await ask({ paths: ['/Vault/Secret/plan.bin'] });
    expect(created.body).toMatchObject({
      type: 'download',
      status: 'PENDING',
      requester: { _id: user.user._id, email: 'user@example.com' },
      approver: null,
      contents: ['/Vault/Secret/plan.bin'],
      downloadLimit: 1,
      approvalDate: null,
      canCancel: true,
    });
    const note = await arrived;
    expect(note).toMatchObject({ key: 'note_request_asked_download', params: { what: '/Vault/Secret/plan.bin' } });
    expect(note.level).toBe(1);
    expect(hooks).toHaveBeenCalledWith('request.state_changed', expect.objectContaining({ requestId: created.body._id, status: 'PENDING' }));

    // The managers see it to approve; the requester and other users do not.
    expect((await box(master.token, 'approve')).body.find((r) => r._id === created.body._id)).toMatchObject({ canApprove: true });
    expect((await box(other.token, 'approve')).body).toEqual([]);
    expect((await box(user.token, 'approve')).body).toEqual([]);
    expect((await box(user.token, 'mine')).body[0]!._id).toBe(created.body._id);

    const userSocket = await connect(server.url, { token: user.token });
    sockets.push(userSocket.socket);
    const told = next<{ key: string }>(userSocket.socket, 'notification');
    const approval = await act(created.body._id, 'approve', admin.token);
    expect(approval.body).toMatchObject({ status: 'APPROVED', approver: { _id: admin.user._id }, downloadsLeft: 1 });
    expect(approval.body.approvalDate).toBe(approval.body.finalApprovalDate);
    expect(approval.body.processingDate).toBe(approval.body.approvalDate);
    expect((await told).key).toBe('note_request_approved_download');
    expect(hooks).toHaveBeenCalledWith('request.state_changed', expect.objectContaining({ requestId: created.body._id, status: 'APPROVED' }));
    hooks.mockRestore();

    // Approval is the requester's: nobody else downloads on it.
    expect((await download('/Vault/Secret/plan.bin', other.token)).status).toBe(403);
    const got = await download('/Vault/Secret/plan.bin');
    expect(got.status).toBe(200);
    expect(got.bytes.equals(plan)).toBe(true);
    await eventually(async () => (await box(user.token, 'mine')).body[0]!.downloadCount === 1);
    expect(messageOf(await download('/Vault/Secret/plan.bin'))).toBe('secure_approval_required');
    const log = await recordsOf(server, { actions: ['request.create', 'request.approve'] });
    expect(log).toEqual(
      expect.arrayContaining([
        expect.objectContaining({ action: 'request.create', targetId: created.body._id, targetPath: '/Vault/Secret/plan.bin', actorAccountId: user.user._id }),
        expect.objectContaining({ action: 'request.approve', targetId: created.body._id, actorAccountId: admin.user._id }),
      ]),
    );
    // The refused download of a used-up approval is recorded too.
    expect(await recordsOf(server, { actions: ['file.download'] })).toContainEqual(
      expect.objectContaining({ outcome: 'refused', reason: 'secure_approval_required', targetPath: '/Vault/Secret/plan.bin' }),
    );
  });

  it('nobody approves their own request; only security managers decide; a rejection needs a reason', async () => {
    const own = await ask({ paths: ['/Vault/Secret/plan.bin'] });
    expect((await actRefused(own.body._id, 'approve', user.token)).body).toEqual({ statusCode: 403, message: 'request_self_approval' });
    expect((await actRefused(own.body._id, 'approve', other.token)).body).toEqual({ statusCode: 403, message: 'no_access_warning' });
    // A manager's own request needs another manager, even for the MASTER.
    const masters = await ask({ paths: ['/Vault/Secret/plan.bin'] }, master.token);
    expect((await actRefused(masters.body._id, 'approve', master.token)).body.message).toBe('request_self_approval');
    expect((await act(masters.body._id, 'approve', admin.token)).body.status).toBe('APPROVED');
    // SETTING on the folder makes a USER a security manager of it.
    await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: '/Vault', users: [{ entity: other.user._id, permissions: ['READ', 'SETTING'] }] },
    });
    expect((await box(other.token, 'approve')).body.map((r) => r._id)).toContain(own.body._id);
    expect((await actRefused(own.body._id, 'reject', other.token)).body.message).toBe('request_reject_reason_required');
    const rejected = await act(own.body._id, 'reject', other.token, '사유 불충분');
    expect(rejected.body).toMatchObject({ status: 'REJECTED', rejectReason: '사유 불충분', approver: { _id: other.user._id }, approvalDate: null });
    await call(server, apiCalls.resource_update, { token: master.token, body: { path: '/Vault', users: [{ entity: other.user._id, remove: true }] } });
    // Final states stay final.
    expect((await actRefused(own.body._id, 'approve', master.token)).body).toEqual({ statusCode: 409, message: 'request_transition_invalid' });
    expect((await actRefused(own.body._id, 'cancel', user.token)).status).toBe(409);
    expect((await download('/Vault/Secret/plan.bin')).status).toBe(403);
  });

  it('concurrent approvals and rejections: exactly one decision wins', async () => {
    const id = (await ask({ paths: ['/Vault/Secret/plan.bin'] })).body._id;
    const answers = await Promise.all([
      ...Array.from({ length: 5 }, () => race(id, 'approve', master.token)),
      ...Array.from({ length: 5 }, () => race(id, 'approve', admin.token)),
      ...Array.from({ length: 5 }, () => race(id, 'reject', admin.token, 'no')),
    ]);
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 409).map((a) => a.body.message)).toEqual(Array(14).fill('request_transition_invalid'));
    // Withdrawn, so that a winning approval leaves no download behind for the next cases.
    // Refused when the rejection won: whichever it was, no download is left.
    await race(id, 'cancel', user.token);
  });

  it('approving an expired request is refused; an approval ends with its validity', async () => {
    const id = (await ask({ paths: ['/Vault/Secret/plan.bin'] })).body._id;
    await server.app.db.updateTable('requests').set({ expires_at: '2001-01-01T00:00:00.000Z' }).where('id', '=', id).execute();
    expect((await actRefused(id, 'approve', master.token)).body).toEqual({ statusCode: 409, message: 'request_expired' });
    const mine = (await box(user.token, 'mine')).body.find((r) => r._id === id);
    expect(mine).toMatchObject({ status: 'EXPIRED', canCancel: false });
    expect(mine!.processingDate).not.toBeNull();

    const granted = await approved({ paths: ['/Vault/Secret/plan.bin'], downloadLimit: 3 });
    await server.app.db.updateTable('requests').set({ expires_at: '2001-01-01T00:00:00.000Z' }).where('id', '=', granted).execute();
    expect(messageOf(await download('/Vault/Secret/plan.bin'))).toBe('secure_approval_required');
    const after = (await box(user.token, 'mine')).body.find((r) => r._id === granted);
    expect(after!.status).toBe('EXPIRED');
  });

  it('the requester withdraws a pending or approved request; nobody else can', async () => {
    const pending = (await ask({ paths: ['/Vault/Secret/plan.bin'] })).body._id;
    expect((await actRefused(pending, 'cancel', admin.token)).status).toBe(403);
    expect((await act(pending, 'cancel', user.token)).body.status).toBe('CANCELED');
    expect((await actRefused(pending, 'approve', master.token)).status).toBe(409);

    const granted = await approved({ paths: ['/Vault/Secret/plan.bin'], downloadLimit: 5 });
    expect((await act(granted, 'cancel', user.token)).body).toMatchObject({ status: 'CANCELED', canCancel: false });
    expect(messageOf(await download('/Vault/Secret/plan.bin'))).toBe('secure_approval_required');
  });

  it('100 concurrent downloads on a one-download approval give exactly one file', async () => {
    await approved({ paths: ['/Vault/Secret/plan.bin'] });
    const results = await Promise.all(Array.from({ length: 100 }, () => download('/Vault/Secret/plan.bin')));
    expect(results.filter((r) => r.status === 200)).toHaveLength(1);
    expect(results.filter((r) => r.status === 403)).toHaveLength(99);
  });

  it('an approval covers what lies under its path: previews and zips count as downloads', async () => {
    await approved({ paths: ['/Vault/Secret'], downloadLimit: 3 });
    expect((await preview('/Vault/Secret/Inner/deep.txt')).bytes.toString()).toBe('deep');
    const zip = await download('/Vault');
    expect(zip.status).toBe(200);
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK');
    await eventually(async () => (await secureStatus('/Vault/Secret/plan.bin')).body.downloadApproved);
    expect((await download('/Vault/Secret/plan.bin')).status).toBe(200);
    await eventually(async () => (await download('/Vault/Secret/plan.bin')).status === 403);
  });

  it('an approved share request allows one link, whose page then serves the secure file', async () => {
    const id = await approved({ type: 'share', paths: ['/Vault/Secret/plan.bin'] });
    const link = await call(server, apiCalls.share_create, { token: user.token, body: { path: '/Vault/Secret/plan.bin', scope: 'anyone', downloadLimit: 1 } });
    expect(link.status).toBe(200);
    const got = await publicShare(server).download(link.body.key);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(plan)).toBe(true);
    expect((await box(user.token, 'mine')).body.find((r) => r._id === id)!.used).toBe(true);
    const second = await callRefused(server, apiCalls.share_create, { token: user.token, body: { path: '/Vault/Secret/plan.bin', scope: 'anyone' } });
    expect(second.body.message).toBe('secure_share_approval_required');
    // Unlocking the folder lifts the gate for everyone.
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Vault/Secret', lock: false } })).body.lock).toBe(false);
    expect((await download('/Vault/Secret/plan.bin', other.token)).status).toBe(200);
    await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Vault/Secret', lock: true } });
  });

  it('a link made under an approval is changed only while the approval stands, and stops serving when it ends', async () => {
    const pub = publicShare(server);
    const mine = async (id: string) => (await call(server, apiCalls.share_list, { token: user.token })).body.mine.find((s) => s._id === id);
    const makeLink = async () => {
      const request = await approved({ type: 'share', paths: ['/Vault/Secret'] });
      const link = await call(server, apiCalls.share_create, { token: user.token, body: { path: '/Vault/Secret/plan.bin', scope: 'anyone' } });
      expect(link.status).toBe(200);
      return { request, link: link.body };
    };
    type Edit = Partial<UpdateShareRequest>;
    const edit = (id: string, body: Edit) => call(server, apiCalls.share_update, { token: user.token, params: { id }, body: { scope: 'anyone', ...body } });
    const editRefused = (id: string, body: Edit) =>
      callRefused(server, apiCalls.share_update, { token: user.token, params: { id }, body: { scope: 'anyone', ...body } });

    const expiring = await makeLink();
    expect((await edit(expiring.link._id, { downloadLimit: 5 })).body).toMatchObject({ downloadLimit: 5 });
    expect((await pub.download(expiring.link.key)).bytes.equals(plan)).toBe(true);
    // The approval's validity ends (the hourly expiry need not have run yet).
    await server.app.db.updateTable('requests').set({ expires_at: '2001-01-01T00:00:00.000Z' }).where('id', '=', expiring.request).execute();
    expect((await pub.download(expiring.link.key)).message).toBe('secure_approval_required');
    expect((await editRefused(expiring.link._id, { scope: 'login', password: 'new password' })).body).toEqual({
      statusCode: 403,
      message: 'secure_share_approval_required',
    });
    expect(await mine(expiring.link._id)).toMatchObject({ scope: 'anyone', hasPassword: false, downloadLimit: 5 });

    const withdrawn = await makeLink();
    expect((await act(withdrawn.request, 'cancel', user.token)).body.status).toBe('CANCELED');
    expect((await pub.download(withdrawn.link.key)).message).toBe('secure_approval_required');
    expect((await editRefused(withdrawn.link._id, { downloadLimit: 100 })).body.message).toBe('secure_share_approval_required');

    // A link made before its folder was locked has no approval to stand on.
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Later', path: '/Vault' } });
    expect((await upload(server, master.token, '/Vault/Later', 'later.txt', Buffer.from('later'))).status).toBe(200);
    const early = (await call(server, apiCalls.share_create, { token: user.token, body: { path: '/Vault/Later/later.txt', scope: 'anyone' } })).body;
    expect((await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Vault/Later', lock: true } })).body.lock).toBe(true);
    expect((await editRefused(early._id, { scope: 'login' })).body.message).toBe('secure_share_approval_required');
    expect((await pub.download(early.key)).message).toBe('secure_approval_required');
    await call(server, apiCalls.file_lock, { token: master.token, body: { path: '/Vault/Later', lock: false } });
    expect((await edit(early._id, { scope: 'login' })).status).toBe(200);
  });

  it('an approval is spent with the link in one transaction: a failed insert leaves it unused, concurrent links get one', async () => {
    const failInserts = async (on: boolean) => {
      const db = server.app.db;
      if (dialect === 'sqlite') {
        await sql
          .raw(on ? "create trigger fail_share_insert before insert on shares begin select raise(abort, 'refused'); end" : 'drop trigger fail_share_insert')
          .execute(db);
      } else if (on) {
        await sql.raw("create function fail_share_insert() returns trigger as $$ begin raise exception 'refused'; end $$ language plpgsql").execute(db);
        await sql.raw('create trigger fail_share_insert before insert on shares for each row execute function fail_share_insert()').execute(db);
      } else {
        await sql.raw('drop trigger fail_share_insert on shares').execute(db);
        await sql.raw('drop function fail_share_insert()').execute(db);
      }
    };
    const used = async (id: string) => (await box(user.token, 'mine')).body.find((r) => r._id === id)!.used;
    const link = { token: user.token, body: { path: '/Vault/Secret/plan.bin', scope: 'anyone' as const } };
    /** Links racing for one approval: one is made and the rest are refused, so raw, to read every status alike. */
    const create = () => server.request('POST', '/api/share', link);

    const id = await approved({ type: 'share', paths: ['/Vault/Secret/plan.bin'] });
    await failInserts(true);
    try {
      expect((await callRefused(server, apiCalls.share_create, link)).status).toBe(500);
    } finally {
      await failInserts(false);
    }
    expect(await used(id)).toBe(false);
    const answers = await Promise.all(Array.from({ length: 5 }, create));
    expect(answers.filter((a) => a.status === 200)).toHaveLength(1);
    expect(answers.filter((a) => a.status === 403).map((a) => a.body.message)).toEqual(Array(4).fill('secure_share_approval_required'));
    expect(await used(id)).toBe(true);
  });

  it('keeps bytes inside a locked folder: no copy or move out of it, even for the MASTER', async () => {
    const copyOut = await callRefused(server, apiCalls.file_copy, {
      token: master.token,
      body: { path: '/Vault/Secret', name: 'plan.bin', newPath: '/Vault' },
    });
    expect(copyOut).toMatchObject({ status: 403, body: { message: 'secure_approval_required' } });
    const moveOut = await callRefused(server, apiCalls.file_move, {
      token: user.token,
      body: { path: '/Vault/Secret/Inner', name: 'deep.txt', newPath: '/Vault' },
    });
    expect(moveOut).toMatchObject({ status: 403, body: { message: 'secure_approval_required' } });
    // Inside the same locked folder, and the locked folder itself (its lock goes along), are fine.
    expect(
      (
        await call(server, apiCalls.file_copy, {
          token: master.token,
          body: { path: '/Vault/Secret/Inner', name: 'deep.txt', newPath: '/Vault/Secret' },
        })
      ).status,
    ).toBe(200);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Archive', path: '/Vault' } });
    const copied = await call(server, apiCalls.file_copy, { token: master.token, body: { path: '/Vault', name: 'Secret', newPath: '/Vault/Archive' } });
    expect(copied.status).toBe(200);
    expect(copied.body.lock).toBe(true);
  });
});
