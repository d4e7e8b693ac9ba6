import { apiCalls, type CreateShareRequest } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, setupMaster, startServer, type TestServer } from './harness.js';
import { eventually, publicShare } from './sharing-helpers.js';
import { bytesOf, upload } from './transfer-helpers.js';

describeEachDialect('share links on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let owner: Awaited<ReturnType<typeof signInAs>>;
  let friend: Awaited<ReturnType<typeof signInAs>>;
  let stranger: Awaited<ReturnType<typeof signInAs>>;
  let pub: ReturnType<typeof publicShare>;
  const report = bytesOf(300_000, 'report');
  const big = bytesOf(4 * 1024 * 1024, 'big');

  beforeAll(async () => {
    server = await startServer(dialect);
    pub = publicShare(server);
    master = await setupMaster(server);
    owner = await signInAs(server, 'owner@example.com');
    friend = await signInAs(server, 'friend@example.com');
    stranger = await signInAs(server, 'stranger@example.com');
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
    await call(server, apiCalls.folder_create, { token: owner.token, body: { name: 'Docs', path: '/Team' } });
    expect((await upload(server, owner.token, '/Team', 'report.bin', report)).status).toBe(200);
    expect((await upload(server, owner.token, '/Team', 'big.bin', big)).status).toBe(200);
    expect((await upload(server, owner.token, '/Team/Docs', 'memo.txt', Buffer.from('회의록 memo'))).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A link's rules; the scope is `anyone` unless given. */
  type Rules = Omit<CreateShareRequest, 'scope'> & Partial<Pick<CreateShareRequest, 'scope'>>;
  const share = async (body: Rules, token = owner.token) => call(server, apiCalls.share_create, { token, body: { scope: 'anyone', ...body } });
  const shareRefused = async (body: Rules, token = owner.token) => callRefused(server, apiCalls.share_create, { token, body: { scope: 'anyone', ...body } });
  const resetLimits = async () => {
    const { guesses, passwordsPerAddress } = server.app.sharing.limits;
    await guesses.reset('127.0.0.1');
    await passwordsPerAddress.reset('127.0.0.1');
  };

  it('makes long random keys and serves the file to anyone with the link', async () => {
    const a = await share({ path: '/Team/report.bin' });
    const b = await share({ path: '/Team/report.bin' });
    expect(a.status).toBe(200);
    expect(a.body.key).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.body.key).not.toBe(b.body.key);
    expect(a.body.url).toBe(`/share/${a.body.key}`);
    expect(a.text).not.toContain('argon2');
    expect(a.body).toMatchObject({ path: '/Team/report.bin', name: 'report.bin', folder: false, state: 'active', hasPassword: false, downloadsLeft: null });

    const info = await pub.info(a.body.key);
    expect(info.body).toMatchObject({ name: 'report.bin', folder: false, size: report.length, passwordRequired: false, unlocked: true, preview: true });
    const got = await pub.download(a.body.key);
    expect(got.status).toBe(200);
    expect(got.bytes.equals(report)).toBe(true);
    expect(got.headers.get('content-disposition')).toContain('attachment');
    // A file link has nothing inside it.
    expect((await pub.download(a.body.key, '/other')).status).toBe(404);
  });

  it('needs SHARE on the path, a future expiry and recipients for scope specific', async () => {
    const entry = await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: '/Team/Docs', users: [{ entity: stranger.user._id, permissions: ['READ', 'DOWNLOAD'] }] },
    });
    expect(entry.status).toBe(200);
    expect((await shareRefused({ path: '/Team/Docs' }, stranger.token)).status).toBe(403);
    expect((await shareRefused({ path: '/Team/nothing.txt' })).status).toBe(404);
    expect((await shareRefused({ path: '/Team/report.bin', expiresAt: '2001-01-01T00:00:00Z' })).body.message).toBe('share_expiry_past');
    expect((await shareRefused({ path: '/Team/report.bin', scope: 'specific' })).body.message).toBe('share_recipients_required');
    expect((await shareRefused({ path: '/Team/report.bin', scope: 'specific', users: ['no-such-user'] })).body.message).toBe('user_not_found');
    expect((await shareRefused({ path: '/Team/report.bin', password: 'abc' })).body.message).toBe('share_password_rule');
    expect((await shareRefused({ path: '/Team/../x' })).body.message).toBe('invalid_path');
    await call(server, apiCalls.resource_update, { token: master.token, body: { path: '/Team/Docs', users: [{ entity: stranger.user._id, remove: true }] } });
  });

  it('password and a limit of one: the password first, one download, then the exceeded message', async () => {
    const link = (await share({ path: '/Team/report.bin', password: 'open sesame', downloadLimit: 1 })).body;
    expect(link).toMatchObject({ hasPassword: true, downloadLimit: 1, downloadsLeft: 1, preview: false });
    const locked = await pub.info(link.key);
    expect(locked.body).toMatchObject({ name: null, size: null, passwordRequired: true, unlocked: false, downloadsLeft: 1 });
    expect((await pub.download(link.key)).message).toBe('share_password_required');
    expect((await pub.unlockRefused(link.key, 'wrong')).body).toEqual({ statusCode: 401, message: 'share_password_wrong' });
    const { shareToken } = (await pub.unlocked(link.key, 'open sesame')).body;
    // A token is for its own link only.
    const other = (await share({ path: '/Team/report.bin', password: 'open sesame' })).body;
    expect((await pub.download(other.key, '/', { shareToken })).message).toBe('share_password_required');

    expect((await pub.info(link.key, { shareToken })).body).toMatchObject({ name: 'report.bin', unlocked: true });
    const got = await pub.download(link.key, '/', { shareToken });
    expect(got.status).toBe(200);
    expect(got.bytes.equals(report)).toBe(true);
    // Until the settled download is counted: refused then (a success meanwhile is not yet).
    await eventually(async () => (await pub.infoRefused(link.key, { shareToken }).catch(() => undefined))?.status === 410);
    expect((await pub.infoRefused(link.key, { shareToken })).body).toEqual({ statusCode: 410, message: 'share_download_exceeded' });
    expect((await pub.download(link.key, '/', { shareToken })).message).toBe('share_download_exceeded');
    const mine = (await call(server, apiCalls.share_list, { token: owner.token })).body.mine.find((s) => s._id === link._id);
    expect(mine).toMatchObject({ state: 'exceeded', downloadCount: 1, downloadsLeft: 0 });
    // Changing the password ends the tokens given before.
    const again = (await share({ path: '/Team/report.bin', password: 'first pass' })).body;
    const token = (await pub.unlocked(again.key, 'first pass')).body.shareToken;
    await call(server, apiCalls.share_update, { token: owner.token, params: { id: again._id }, body: { scope: 'anyone', password: 'second pass' } });
    expect((await pub.download(again.key, '/', { shareToken: token })).message).toBe('share_password_required');
  });

  it('100 concurrent downloads of a one-download link give exactly one file', async () => {
    const link = (await share({ path: '/Team/report.bin', downloadLimit: 1 })).body;
    const results = await Promise.all(Array.from({ length: 100 }, () => pub.download(link.key)));
    const ok = results.filter((r) => r.status === 200);
    expect(ok).toHaveLength(1);
    expect(ok[0]!.bytes.equals(report)).toBe(true);
    expect(results.filter((r) => r.status === 410 && r.message === 'share_download_exceeded')).toHaveLength(99);
  });

  it('a download counts only when it completes: one cut off gives its use back', async () => {
    const link = (await share({ path: '/Team/big.bin', downloadLimit: 1 })).body;
    const controller = new AbortController();
    // Raw: the download is cut off half-way through its bytes.
    const res = await fetch(`${server.url}/api/share/public/${link.key}/download`, { signal: controller.signal });
    expect(res.status).toBe(200);
    const reader = res.body!.getReader();
    await reader.read();
    controller.abort();
    // Refused (410) while the cut download still holds the one use; answered again once it is given back.
    await eventually(async () => (await pub.info(link.key).catch(() => undefined))?.body.downloadsLeft === 1);
    const full = await pub.download(link.key);
    expect(full.status).toBe(200);
    expect(full.bytes.equals(big)).toBe(true);
    expect((await pub.download(link.key)).status).toBe(410);
  });

  it('scopes: signed-in users, specific users and groups, private', async () => {
    const login = (await share({ path: '/Team/report.bin', scope: 'login' })).body;
    expect((await pub.infoRefused(login.key)).body).toEqual({ statusCode: 401, message: 'share_login_required' });
    expect((await pub.info(login.key, { token: stranger.token })).status).toBe(200);

    const group = (await call(server, apiCalls.group_create, { token: master.token, body: { name: 'readers' } })).body._id;
    const member = await signInAs(server, 'member@example.com');
    await call(server, apiCalls.group_members_add, { token: master.token, params: { id: group }, body: { userIds: [member.user._id] } });
    const specific = (await share({ path: '/Team/report.bin', scope: 'specific', users: [friend.user._id], groups: [group] })).body;
    expect(specific.users).toEqual([{ _id: friend.user._id, name: '사용자', email: 'friend@example.com' }]);
    expect(specific.groups).toEqual([{ _id: group, name: 'readers' }]);
    expect((await pub.infoRefused(specific.key)).body.message).toBe('share_login_required');
    expect((await pub.infoRefused(specific.key, { token: stranger.token })).body).toEqual({ statusCode: 403, message: 'no_access_warning' });
    expect((await pub.download(specific.key, '/', { token: friend.token })).status).toBe(200);
    expect((await pub.download(specific.key, '/', { token: member.token })).status).toBe(200);
    expect((await pub.download(specific.key, '/', { token: owner.token })).status).toBe(200);

    const shared = (await call(server, apiCalls.share_list, { token: friend.token })).body;
    expect(shared.sharedWithMe.map((s) => s._id)).toContain(specific._id);
    expect(shared.sharedWithMe[0]).toMatchObject({ name: 'report.bin', creator: { email: 'owner@example.com' } });
    expect((await call(server, apiCalls.share_list, { token: stranger.token })).body.sharedWithMe).toEqual([]);

    const mine = (await share({ path: '/Team/report.bin', scope: 'private' })).body;
    expect((await pub.infoRefused(mine.key, { token: friend.token })).status).toBe(403);
    expect((await pub.infoRefused(mine.key)).status).toBe(401);
    expect((await pub.info(mine.key, { token: owner.token })).status).toBe(200);
  });

  it('a shared folder is browsable inside it only; previews only on links without a limit', async () => {
    const link = (await share({ path: '/Team/Docs' })).body;
    expect((await pub.info(link.key)).body).toMatchObject({ name: 'Docs', folder: true });
    const list = await pub.list(link.key);
    expect(list.body).toEqual({ path: '/', items: [expect.objectContaining({ name: 'memo.txt', path: '/memo.txt', folder: false, lock: false })] });
    const memo = await pub.download(link.key, '/memo.txt');
    expect(memo.bytes.toString()).toBe('회의록 memo');
    const preview = await pub.download(link.key, '/memo.txt', { route: 'preview' });
    expect(preview.status).toBe(200);
    expect(preview.headers.get('content-security-policy')).toContain('sandbox');
    expect((await pub.listRefused(link.key, '/../report.bin')).status).toBe(400);
    expect((await pub.download(link.key, '/../report.bin')).status).toBe(400);
    expect((await pub.listRefused(link.key, '/nothing')).status).toBe(404);
    const zip = await pub.download(link.key);
    expect(zip.headers.get('content-type')).toBe('application/zip');
    expect(zip.bytes.subarray(0, 2).toString()).toBe('PK');

    const limited = (await share({ path: '/Team/Docs', downloadLimit: 5 })).body;
    expect((await pub.download(limited.key, '/memo.txt', { route: 'preview' })).message).toBe('share_preview_off');
    const noPreview = (await share({ path: '/Team/Docs', preview: false })).body;
    expect((await pub.download(noPreview.key, '/memo.txt', { route: 'preview' })).message).toBe('share_preview_off');
  });

  it('revoked, expired, edited by someone else', async () => {
    const link = (await share({ path: '/Team/report.bin' })).body;
    expect((await callRefused(server, apiCalls.share_update, { token: friend.token, params: { id: link._id }, body: { scope: 'private' } })).status).toBe(404);
    expect((await callRefused(server, apiCalls.share_delete, { token: friend.token, params: { id: link._id } })).status).toBe(404);
    const edited = await call(server, apiCalls.share_update, { token: owner.token, params: { id: link._id }, body: { scope: 'login', downloadLimit: 3 } });
    expect(edited.body).toMatchObject({ scope: 'login', downloadLimit: 3, downloadsLeft: 3 });
    expect((await pub.infoRefused(link.key)).status).toBe(401);

    await server.app.db.updateTable('shares').set({ expires_at: '2001-01-01T00:00:00.000Z' }).where('id', '=', link._id).execute();
    expect((await pub.infoRefused(link.key, { token: friend.token })).body).toEqual({ statusCode: 410, message: 'share_link_expired' });
    expect((await pub.download(link.key, '/', { token: friend.token })).message).toBe('share_link_expired');

    const revoked = (await share({ path: '/Team/report.bin' })).body;
    expect((await call(server, apiCalls.share_delete, { token: owner.token, params: { id: revoked._id } })).status).toBe(200);
    expect((await pub.infoRefused(revoked.key)).body).toEqual({ statusCode: 404, message: 'share_link_invalid' });
    expect((await pub.download(revoked.key)).message).toBe('share_link_invalid');
  });

  it('links expire for good when the item is trashed, restored or put back by a snapshot restore', async () => {
    await call(server, apiCalls.folder_create, { token: owner.token, body: { name: 'Old', path: '/Team' } });
    expect((await upload(server, owner.token, '/Team/Old', 'note.txt', Buffer.from('old note'))).status).toBe(200);
    const onFile = (await share({ path: '/Team/Old/note.txt' })).body;
    const onFolder = (await share({ path: '/Team/Old' })).body;
    const trashed = await call(server, apiCalls.file_trash, { token: owner.token, body: { paths: ['/Team/Old'] } });
    expect(trashed.status).toBe(200);
    expect((await pub.infoRefused(onFile.key)).body.message).toBe('share_link_expired');
    expect((await pub.infoRefused(onFolder.key)).body.message).toBe('share_link_expired');
    expect((await call(server, apiCalls.trash_restore, { token: owner.token, body: { ids: trashed.body.ids } })).status).toBe(200);
    // Back in place, but the links stay expired: a new link is needed.
    expect((await pub.infoRefused(onFile.key)).body.message).toBe('share_link_expired');
    expect((await pub.infoRefused(onFolder.key)).body.message).toBe('share_link_expired');
    const mine = (await call(server, apiCalls.share_list, { token: owner.token })).body.mine;
    expect(mine.find((s) => s._id === onFile._id)).toMatchObject({ state: 'expired', path: '/Team/Old/note.txt' });

    const fresh = (await share({ path: '/Team/Old/note.txt' })).body;
    expect((await pub.info(fresh.key)).status).toBe(200);
    const node = await server.app.fileTree.resolve('/Team/Old/note.txt');
    await server.app.snapshots.restored.notify([node!.id], (error) => {
      throw error;
    });
    expect((await pub.infoRefused(fresh.key)).body.message).toBe('share_link_expired');
  });

  it('a link stops at once when its creator loses SHARE, is blocked or deleted', async () => {
    const link = (await share({ path: '/Team/Docs/memo.txt' })).body;
    const revoke = await call(server, apiCalls.resource_update, {
      token: master.token,
      body: { path: '/Team/Docs', users: [{ entity: owner.user._id, permissions: ['READ', 'DOWNLOAD'] }] },
    });
    expect(revoke.status).toBe(200);
    expect((await pub.infoRefused(link.key)).body.message).toBe('share_link_invalid');
    expect((await pub.download(link.key)).message).toBe('share_link_invalid');
    await call(server, apiCalls.resource_update, { token: master.token, body: { path: '/Team/Docs', users: [{ entity: owner.user._id, remove: true }] } });
    expect((await pub.info(link.key)).status).toBe(200);

    const leaver = await signInAs(server, 'leaver@example.com');
    const left = (await share({ path: '/Team/report.bin' }, leaver.token)).body;
    expect((await pub.info(left.key)).status).toBe(200);
    await server.app.db.updateTable('users').set({ status: 'BLOCK' }).where('id', '=', leaver.user._id).execute();
    expect((await pub.infoRefused(left.key)).body.message).toBe('share_link_invalid');
    await server.app.db.deleteFrom('users').where('id', '=', leaver.user._id).execute();
    expect((await pub.infoRefused(left.key)).body.message).toBe('share_link_invalid');
  });

  it('guessing keys is rate-limited per address; unknown and malformed keys look alike', async () => {
    await resetLimits();
    const real = (await share({ path: '/Team/report.bin' })).body;
    const answers = new Set<string>();
    for (let i = 0; i < 30; i++) {
      const guess = i % 2 === 0 ? real.key.slice(0, 42) + (real.key.endsWith('A') ? 'B' : 'A') : `short${i}`;
      const res = await pub.infoRefused(guess);
      answers.add(`${res.status} ${res.body.message}`);
    }
    expect([...answers]).toEqual(['404 share_link_invalid']);
    // Past the limit even a real key is refused from that address for a while.
    expect((await pub.infoRefused(real.key)).status).toBe(429);
    expect((await pub.unlockRefused(real.key, 'x')).status).toBe(429);
    await resetLimits();
    expect((await pub.info(real.key)).status).toBe(200);
  });

  it('password brute force: limited per link, then per address', async () => {
    await resetLimits();
    const links = [];
    for (let i = 0; i < 3; i++) links.push((await share({ path: '/Team/report.bin', password: `secret-${i}` })).body);
    for (let i = 0; i < 10; i++) expect((await pub.unlockRefused(links[0]!.key, `guess-${i}`)).status).toBe(401);
    // The link is closed to further tries, the right password included.
    expect((await pub.unlockRefused(links[0]!.key, 'secret-0')).status).toBe(429);
    for (let i = 0; i < 10; i++) expect((await pub.unlockRefused(links[1]!.key, `guess-${i}`)).status).toBe(401);
    // Twenty wrong ones from one address close every link to it.
    expect((await pub.unlockRefused(links[2]!.key, 'secret-2')).body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });
    await resetLimits();
    expect((await pub.unlocked(links[2]!.key, 'secret-2')).status).toBe(200);
    // An unknown key is refused like a missing link, after the same password work.
    expect((await pub.unlockRefused('A'.repeat(43), 'secret')).body.message).toBe('share_link_invalid');
  });

  it('parallel password attempts: only the limit of them is checked, the rest and then the right one are refused', async () => {
    await resetLimits();
    const link = (await share({ path: '/Team/report.bin', password: 'right one' })).body;
    const answers = await Promise.all(Array.from({ length: 40 }, (_, i) => pub.unlockRefused(link.key, `guess-${i}`)));
    expect(answers.filter((a) => a.status === 401 && a.body.message === 'share_password_wrong')).toHaveLength(10);
    expect(answers.filter((a) => a.status === 429 && a.body.message === 'too_many_requests_message')).toHaveLength(30);
    expect((await pub.unlockRefused(link.key, 'right one')).body).toEqual({ statusCode: 429, message: 'too_many_requests_message' });

    // A right password gives its attempt back: it never closes a link by itself.
    const open = (await share({ path: '/Team/report.bin', password: 'right one' })).body;
    const rights = await Promise.all(Array.from({ length: 10 }, () => pub.unlocked(open.key, 'right one')));
    expect(rights.map((a) => a.status)).toEqual(Array(10).fill(200));
    expect((await pub.unlocked(open.key, 'right one')).status).toBe(200);
    await resetLimits();
  });

  it('parallel key guesses: no more than the limit are answered from one address', async () => {
    await resetLimits();
    const real = (await share({ path: '/Team/report.bin' })).body;
    const other = (real.key.startsWith('A') ? 'B' : 'A') + real.key.slice(1, 40);
    const guesses = Array.from({ length: 60 }, (_, i) => `${other}${String(i).padStart(3, '0')}`);
    const answers = await Promise.all(guesses.map((key) => pub.infoRefused(key)));
    expect(answers.filter((a) => a.status === 404)).toHaveLength(30);
    expect(answers.filter((a) => a.status === 429)).toHaveLength(30);
    expect((await pub.infoRefused(real.key)).status).toBe(429);
    await resetLimits();
    // Parallel uses of a real link are not guesses: none is refused.
    const uses = await Promise.all(Array.from({ length: 50 }, () => pub.info(real.key)));
    expect(uses.map((a) => a.status)).toEqual(Array(50).fill(200));
  });
});
