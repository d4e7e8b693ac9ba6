import XLSX from 'xlsx';
import sharp from 'sharp';
import { apiCalls, type CreateAccountRequest, type UpdateAccountRequest } from '@bogwan/contracts';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

const INITIAL = 'Initial!2345';

/** A multipart body holding one file, as the avatar and Excel uploads send it. */
function fileForm(bytes: Buffer, fileName: string): FormData {
  const form = new FormData();
  form.append('file', new Blob([bytes]), fileName);
  return form;
}

function workbook(rows: unknown[][], bookType: 'xlsx' | 'xls' = 'xlsx'): Buffer {
  const book = XLSX.utils.book_new();
  XLSX.utils.book_append_sheet(book, XLSX.utils.aoa_to_sheet(rows), 'Sheet1');
  return XLSX.write(book, { type: 'buffer', bookType }) as Buffer;
}

describeEachDialect('accounts on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  let user: Awaited<ReturnType<typeof signInAs>>;

  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_INITIAL_PASSWORD: INITIAL });
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    user = await signInAs(server, 'user@example.com');
  });
  afterAll(async () => {
    await server?.close();
  });

  /** A sign-in that must succeed without a second factor: its answer, the session typed. */
  const login = async (email: string, password: string) => {
    const res = await call(server, apiCalls.login, { body: { email, password } });
    if (!('token' in res.body)) throw new Error(`sign-in of ${email} asked for a second factor`);
    return { ...res, body: res.body };
  };
  const loginRefused = (email: string, password: string) => callRefused(server, apiCalls.login, { body: { email, password } });
  const put = (token: string, body: UpdateAccountRequest) => call(server, apiCalls.user_update, { token, body });
  const putRefused = (token: string, body: UpdateAccountRequest) => callRefused(server, apiCalls.user_update, { token, body });
  const create = (token: string, body: CreateAccountRequest) => call(server, apiCalls.user_create, { token, body });
  const createRefused = (token: string, body: CreateAccountRequest) => callRefused(server, apiCalls.user_create, { token, body });

  it('creates an account with the initial password that must be changed before anything else', async () => {
    const created = await create(admin.token, { name: '새사용자', email: 'New@Example.com' });
    expect(created.status).toBe(200);
    expect(created.body).toMatchObject({ email: 'new@example.com', status: 'ACTIVE', approved: true, role: 'USER', mustChangePassword: true });
    expect(created.body.groups.map((g) => g.name)).toEqual(['default']);
    expect((await call(server, apiCalls.user_initial_password, { token: admin.token })).body).toEqual({ password: INITIAL });

    const signedIn = await login('new@example.com', INITIAL);
    expect(signedIn.status).toBe(200);
    expect(signedIn.body.user.mustChangePassword).toBe(true);
    const token = signedIn.body.token;
    expect(await callRefused(server, apiCalls.root_list, { token })).toMatchObject({ status: 403, body: { message: 'password_change_required' } });
    const changed = await call(server, apiCalls.password_change, {
      token,
      body: { _id: created.body._id, password: INITIAL, newPassword: GOOD_PASSWORD },
    });
    expect(changed.status).toBe(200);
    expect((await call(server, apiCalls.root_list, { token: changed.body.token })).status).toBe(200);
    expect((await createRefused(admin.token, { name: '중복', email: 'new@example.com' })).body.message).toBe('rules_email_duplicate');
  });

  it('keeps the password given at creation and refuses bad names and emails', async () => {
    const created = await create(master.token, { name: 'Given', email: 'given@example.com', password: GOOD_PASSWORD });
    expect(created.body.mustChangePassword).toBe(false);
    expect((await login('given@example.com', GOOD_PASSWORD)).body.user.mustChangePassword).toBe(false);
    expect((await createRefused(master.token, { name: 'Bad1', email: 'x@example.com' })).body.message).toBe('rules_name_pattern');
    expect((await createRefused(master.token, { name: 'Ok', email: 'nope' })).body.message).toBe('rules_email_pattern');
  });

  it('lists accounts by role, then by name in Korean order', async () => {
    const list = await call(server, apiCalls.user_list, { token: admin.token });
    expect(list.status).toBe(200);
    const roles = list.body.map((a) => a.role);
    expect(roles.indexOf('USER')).toBeGreaterThan(roles.lastIndexOf('ADMIN'));
    expect(roles[0]).toBe('MASTER');
    const users = list.body.filter((a) => a.role === 'USER').map((a) => a.name);
    expect(users).toEqual([...users].sort(new Intl.Collator('ko').compare));
    expect(list.text).not.toContain('password_hash');
  });

  it('applies the role rules: level 2 edits other USERs only, never themself or a MASTER', async () => {
    const target = await signInAs(server, 'target@example.com');
    expect((await put(admin.token, { _id: target.user._id, status: 'BLOCK' })).status).toBe(200);
    // A blocked account's sessions end at once.
    expect((await callRefused(server, apiCalls.root_list, { token: target.token })).status).toBe(401);
    expect((await put(admin.token, { _id: target.user._id, status: 'ACTIVE' })).status).toBe(200);
    expect((await putRefused(admin.token, { _id: admin.user._id, role: 'MASTER' })).status).toBe(403);
    expect((await putRefused(admin.token, { _id: master.user._id, status: 'BLOCK' })).status).toBe(403);
    expect((await putRefused(admin.token, { _id: target.user._id, role: 'MASTER' })).status).toBe(403);
    expect((await putRefused(master.token, { _id: master.user._id, role: 'USER' })).status).toBe(403);
    const other = await signInAs(server, 'second-admin@example.com', 'ADMIN');
    expect((await putRefused(admin.token, { _id: other.user._id, status: 'BLOCK' })).status).toBe(403);
    expect((await put(master.token, { _id: other.user._id, role: 'USER' })).body.roleLevel).toBe(1);
  });

  it('applies the role rules between administrators', async () => {
    const roleOf = async (id: string) => (await call(server, apiCalls.user_list, { token: master.token, query: { _id: id } })).body[0];
    const second = await signInAs(server, 'second-master@example.com');
    expect((await put(master.token, { _id: second.user._id, role: 'MASTER' })).body).toMatchObject({ role: 'MASTER', roleLevel: 3 });

    // A MASTER cannot change another MASTER's role.
    expect(await putRefused(master.token, { _id: second.user._id, role: 'ADMIN' })).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect((await roleOf(second.user._id))!.role).toBe('MASTER');

    // An ADMIN may promote a USER to ADMIN, who then reaches the administrator calls.
    const promoted = await signInAs(server, 'promoted@example.com');
    expect((await callRefused(server, apiCalls.user_list, { token: promoted.token })).status).toBe(403);
    expect((await put(admin.token, { _id: promoted.user._id, role: 'ADMIN' })).body).toMatchObject({ role: 'ADMIN', roleLevel: 2 });
    expect((await call(server, apiCalls.user_list, { token: promoted.token })).status).toBe(200);

    // An ADMIN cannot change another ADMIN's status or role, nor their own status.
    expect((await putRefused(admin.token, { _id: promoted.user._id, status: 'BLOCK' })).status).toBe(403);
    expect((await putRefused(admin.token, { _id: promoted.user._id, role: 'USER' })).status).toBe(403);
    expect((await putRefused(admin.token, { _id: admin.user._id, status: 'BLOCK' })).status).toBe(403);
    expect(await roleOf(promoted.user._id)).toMatchObject({ role: 'ADMIN', status: 'ACTIVE' });
    expect(await roleOf(admin.user._id)).toMatchObject({ role: 'ADMIN', status: 'ACTIVE' });

    // A MASTER may change another MASTER's status; the blocked MASTER is signed out.
    expect((await put(master.token, { _id: second.user._id, status: 'BLOCK' })).body).toMatchObject({ status: 'BLOCK', role: 'MASTER' });
    expect((await callRefused(server, apiCalls.root_list, { token: second.token })).status).toBe(401);
    expect((await put(master.token, { _id: second.user._id, status: 'ACTIVE' })).body.status).toBe('ACTIVE');
    // Leave the trial's seats as they were.
    for (const id of [second.user._id, promoted.user._id]) {
      expect((await call(server, apiCalls.user_delete, { token: master.token, body: { accountId: id, adminId: master.user._id } })).status).toBe(200);
    }
  });

  it('counts only ACTIVE MASTERs when the last MASTER would go', async () => {
    const ownDelete = (token: string, id: string) =>
      call(server, apiCalls.user_delete_own, { token, body: { _id: id, password: GOOD_PASSWORD, reason: 'other' } });
    const ownDeleteRefused = (token: string, id: string) =>
      callRefused(server, apiCalls.user_delete_own, { token, body: { _id: id, password: GOOD_PASSWORD, reason: 'other' } });
    const spare = await signInAs(server, 'spare-master@example.com');
    expect((await put(master.token, { _id: spare.user._id, role: 'MASTER' })).status).toBe(200);
    // A blocked or pending MASTER cannot sign in: the active one stays the last.
    for (const status of ['BLOCK', 'PENDING'] as const) {
      expect((await put(master.token, { _id: spare.user._id, status })).status).toBe(200);
      expect(await ownDeleteRefused(master.token, master.user._id)).toMatchObject({ status: 409, body: { message: 'last_master_warning' } });
      expect((await login('master@example.com', GOOD_PASSWORD)).status).toBe(200);
    }
    // With a second ACTIVE MASTER one of them may leave.
    const reactivated = await put(master.token, { _id: spare.user._id, status: 'ACTIVE' });
    expect(reactivated.body).toMatchObject({ status: 'ACTIVE', approved: true });
    const spareSession = await login('spare-master@example.com', GOOD_PASSWORD);
    expect((await ownDelete(spareSession.body.token, spare.user._id)).status).toBe(200);
    expect(await ownDeleteRefused(master.token, master.user._id)).toMatchObject({ status: 409, body: { message: 'last_master_warning' } });
  });

  it('refuses mass assignment and edits of someone else by a USER (IDOR)', async () => {
    expect((await putRefused(user.token, { _id: user.user._id, name: 'Renamed', role: 'ADMIN' })).status).toBe(403);
    expect((await putRefused(user.token, { _id: admin.user._id, name: 'Hacked' })).status).toBe(403);
    const renamed = await put(user.token, { _id: user.user._id, name: '이름변경' });
    expect(renamed.status).toBe(200);
    expect(renamed.body).toMatchObject({ name: '이름변경', role: 'USER' });
    expect((await callRefused(server, apiCalls.user_list, { token: user.token })).status).toBe(403);
  });

  it('moves PENDING to ACTIVE with approval', async () => {
    const pending = await create(master.token, { name: 'Pending', email: 'pending@example.com', status: 'PENDING', approved: false });
    expect(pending.body).toMatchObject({ status: 'PENDING', approved: false });
    expect((await put(master.token, { _id: pending.body._id, status: 'ACTIVE' })).body).toMatchObject({ status: 'ACTIVE', approved: true });
  });

  it('deletes an account by an administrator and ends its sessions', async () => {
    const victim = await signInAs(server, 'victim@example.com');
    expect(
      (await callRefused(server, apiCalls.user_delete, { token: admin.token, body: { accountId: master.user._id, adminId: admin.user._id } })).status,
    ).toBe(403);
    expect((await call(server, apiCalls.user_delete, { token: admin.token, body: { accountId: victim.user._id, adminId: 'ignored' } })).status).toBe(200);
    expect((await callRefused(server, apiCalls.root_list, { token: victim.token })).status).toBe(401);
    expect((await loginRefused('victim@example.com', GOOD_PASSWORD)).status).toBe(401);
  });

  it('deletes one\u2019s own account with the password; the last MASTER stays', async () => {
    const leaver = await signInAs(server, 'leaver@example.com');
    const wrong = await callRefused(server, apiCalls.user_delete_own, {
      token: leaver.token,
      body: { _id: leaver.user._id, password: 'Wrong!2345', reason: 'other' },
    });
    expect(wrong).toMatchObject({ status: 401, body: { message: 'rules_password_not_match' } });
    // Raw on purpose: a body without the reason, which the contract's type does not allow.
    const noReason = await server.request('POST', '/api/user/account', { token: leaver.token, body: { _id: leaver.user._id, password: GOOD_PASSWORD } });
    expect(noReason.body.message).toBe('delete_account_reason_choice');
    expect(
      (await callRefused(server, apiCalls.user_delete_own, { token: leaver.token, body: { _id: user.user._id, password: GOOD_PASSWORD, reason: 'other' } }))
        .status,
    ).toBe(403);
    expect(
      (await call(server, apiCalls.user_delete_own, { token: leaver.token, body: { _id: leaver.user._id, password: GOOD_PASSWORD, reason: 'low_usage' } }))
        .status,
    ).toBe(200);
    expect((await loginRefused('leaver@example.com', GOOD_PASSWORD)).status).toBe(401);
    const last = await callRefused(server, apiCalls.user_delete_own, {
      token: master.token,
      body: { _id: master.user._id, password: GOOD_PASSWORD, reason: 'other' },
    });
    expect(last).toMatchObject({ status: 409, body: { message: 'last_master_warning' } });
  });

  it('stores an avatar re-encoded without metadata, for oneself only', async () => {
    const jpeg = await sharp({ create: { width: 600, height: 400, channels: 3, background: '#3366aa' } })
      .jpeg()
      .withMetadata({ exif: { IFD0: { Copyright: 'secret-location-42' } } })
      .toBuffer();
    expect(jpeg.includes(Buffer.from('secret-location-42'))).toBe(true);
    expect((await callRefused(server, apiCalls.user_avatar, { token: user.token, params: { id: admin.user._id }, body: fileForm(jpeg, 'a.jpg') })).status).toBe(
      403,
    );
    const set = await call(server, apiCalls.user_avatar, { token: user.token, params: { id: user.user._id }, body: fileForm(jpeg, 'a.jpg') });
    expect(set.status).toBe(200);
    const url = set.body.profileImage!;
    expect(url).toMatch(/^\/api\/avatar\/[0-9a-f]{32}\.webp$/);
    // Raw fetch on purpose: the image's own bytes and content type, at the address the answer gave.
    const image = await fetch(`${server.url}${url}`);
    expect(image.headers.get('content-type')).toBe('image/webp');
    const bytes = Buffer.from(await image.arrayBuffer());
    expect(bytes.includes(Buffer.from('secret-location-42'))).toBe(false);
    expect(await sharp(bytes).metadata()).toMatchObject({ width: 256, height: 256, format: 'webp' });
    const notImage = await callRefused(server, apiCalls.user_avatar, {
      token: user.token,
      params: { id: user.user._id },
      body: fileForm(Buffer.from('<svg onload=alert(1)>'), 'x.png'),
    });
    expect(notImage).toMatchObject({ status: 400, body: { message: 'profile_image_only' } });
    const removed = await call(server, apiCalls.user_avatar_delete, { token: user.token, params: { id: user.user._id } });
    expect(removed.body.profileImage).toBeNull();
    expect((await fetch(`${server.url}${url}`)).status).toBe(404);
  });

  it('reads an Excel sheet into invalid, duplicate and available rows and registers them', async () => {
    await call(server, apiCalls.group_create, { token: master.token, body: { name: 'sales', description: '' } });
    const sheet = workbook([
      ['name', 'email', 'password', 'groups'],
      ['김영희', 'kim.yh@example.com', '', 'sales'],
      ['Park', 'park@example.com', GOOD_PASSWORD, ''],
      ['Dup', 'user@example.com', '', ''],
      ['Bad Mail', 'bad-mail', '', ''],
      ['Formula', { f: 'CONCAT("a","@b.com")', v: 'a@b.com', t: 's' }, '', ''],
    ]);
    const preview = await call(server, apiCalls.user_excel, { token: master.token, body: fileForm(sheet, 'people.xlsx') });
    expect(preview.status).toBe(200);
    expect(preview.body.available.map((r) => r.email)).toEqual(['kim.yh@example.com', 'park@example.com']);
    expect(preview.body.duplicate.map((r) => r.email)).toEqual(['user@example.com']);
    expect(preview.body.invalid.map((r) => [r.name, r.error])).toEqual([
      ['Bad Mail', 'rules_email_pattern'],
      ['Formula', 'check_input_message'],
    ]);

    const all = [...preview.body.available, ...preview.body.duplicate];
    expect(await callRefused(server, apiCalls.user_register, { token: master.token, body: { list: all } })).toMatchObject({
      status: 409,
      body: { message: 'check_input_message' },
    });
    expect(await callRefused(server, apiCalls.user_register, { token: master.token, body: { list: [] } })).toMatchObject({
      status: 400,
      body: { message: 'no_register_information' },
    });
    const done = await call(server, apiCalls.user_register, { token: master.token, body: { list: preview.body.available } });
    expect(done.body).toEqual({ created: 2 });
    const kim = (await call(server, apiCalls.user_list, { token: master.token })).body.find((a) => a.email === 'kim.yh@example.com');
    expect(kim!.groups.map((g) => g.name).sort()).toEqual(['default', 'sales']);
    expect(kim!.mustChangePassword).toBe(true);
    expect((await login('park@example.com', GOOD_PASSWORD)).body.user.mustChangePassword).toBe(false);
  });

  it('reads .xls too, and refuses a renamed text file, a huge sheet and an oversized file', async () => {
    const excel = (bytes: Buffer, fileName: string) => ({ token: master.token, body: fileForm(bytes, fileName) });
    const xls = await call(server, apiCalls.user_excel, excel(workbook([['Lee', 'lee.xls@example.com']], 'xls'), 'old.xls'));
    expect(xls.body.available).toEqual([{ name: 'Lee', email: 'lee.xls@example.com' }]);
    const fake = await callRefused(server, apiCalls.user_excel, excel(Buffer.from('name,email\nA,a@example.com\n'), 'fake.xlsx'));
    expect(fake).toMatchObject({ status: 400, body: { message: 'excel_invalid_file' } });
    const rows = Array.from({ length: 10_000 }, (_, i) => [`Name`, `n${i}@example.com`]);
    const huge = await callRefused(server, apiCalls.user_excel, excel(workbook(rows), 'huge.xlsx'));
    expect(huge).toMatchObject({ status: 400, body: { message: 'excel_too_many_rows' } });
    const big = await callRefused(server, apiCalls.user_excel, excel(Buffer.alloc(6 * 1_048_576, 1), 'big.xlsx'));
    expect(big.status).toBe(413);
    expect((await call(server, apiCalls.health)).status).toBe(200);
  });

  it('answers public profiles to any signed-in user, without secrets', async () => {
    const res = await call(server, apiCalls.user_profile, { token: user.token, query: { email: 'admin@example.com' } });
    expect(res.status).toBe(200);
    expect(res.body[0]).toMatchObject({ email: 'admin@example.com', role: 'ADMIN' });
    expect(res.text).not.toMatch(/password|otp|mfa/i);
  });
});
