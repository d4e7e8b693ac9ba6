import { apiCalls } from '@bogwan/contracts';
import { generate } from 'otplib';
import sharp from 'sharp';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { lastSeq, recordsOf } from './audit-actions-helpers.js';
import { signInAs } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

const EMAIL = 'member@example.com';

// Sign-in, factors, accounts, licence and settings in the audit trail.
describeEachDialect('audit records of accounts and sign-in on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let member: Awaited<ReturnType<typeof signInAs>>;
  const agent = { 'user-agent': 'AuditTest/2.0' };

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    member = await signInAs(server, EMAIL);
  });
  afterAll(async () => {
    await server?.close();
  });

  const login = (email: string, password: string) => call(server, apiCalls.login, { body: { email, password }, headers: agent });
  const loginRefused = (email: string, password: string) => callRefused(server, apiCalls.login, { body: { email, password }, headers: agent });
  /** A call's credentials and the client's agent. */
  const client = (token: string) => ({ token, headers: agent });

  it('records sign-in ok, failed (wrong password, unknown e-mail), locked, and sign-out with the client', async () => {
    const from = await lastSeq(server);
    const ok = await login(EMAIL, GOOD_PASSWORD);
    expect(ok.status).toBe(200);
    if (!('token' in ok.body)) throw new Error('the sign-in asked for a second factor');
    expect((await loginRefused('nobody@example.com', 'Wrong!pass1')).status).toBe(401);
    for (let i = 0; i < 4; i++) expect((await loginRefused(EMAIL, `Wrong!pass${i}`)).status).toBe(401);
    // The fifth failure restricts the account (423), and so is every try while it lasts.
    expect((await loginRefused(EMAIL, 'Wrong!pass5')).status).toBe(423);
    expect((await loginRefused(EMAIL, GOOD_PASSWORD)).status).toBe(423);
    expect((await call(server, apiCalls.logout, { ...client(ok.body.token), body: {} })).status).toBe(204);
    await server.app.loginGuard.unlock(member.user._id);

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.outcome, r.reason])).toEqual([
      ['auth.sign_in', 'allowed', null],
      ['auth.sign_in_failed', 'refused', 'login_failure'],
      ...Array.from({ length: 5 }, () => ['auth.sign_in_failed', 'refused', 'login_failure']),
      ['auth.locked', 'refused', 'login_attempt_restrict'],
      ['auth.locked', 'refused', 'login_attempt_restrict'],
      ['auth.sign_out', 'allowed', null],
    ]);
    expect(records[0]).toMatchObject({
      actorAccountId: member.user._id,
      targetKind: 'account',
      targetId: member.user._id,
      params: { method: 'password' },
      ip: '127.0.0.1',
      userAgent: 'AuditTest/2.0',
    });
    // An unknown e-mail names no account, only what was typed.
    expect(records[1]).toMatchObject({ actorAccountId: null, targetId: null, params: { email: 'nobody@example.com' } });
    expect(records[2]).toMatchObject({ actorAccountId: member.user._id, params: { email: EMAIL } });
    expect(records.at(-1)).toMatchObject({ actorAccountId: member.user._id, ip: '127.0.0.1' });
  });

  it('records the authenticator app registration, the second-factor method, a wrong current password and a password change', async () => {
    const from = await lastSeq(server);
    const qr = await call(server, apiCalls.otp_register, { ...client(master.token), body: { email: 'master@example.com', currentPassword: GOOD_PASSWORD } });
    expect(qr.status).toBe(200);
    const otp = await generate({ secret: qr.body.secret, epoch: Math.floor(Date.now() / 1000) });
    expect((await call(server, apiCalls.verify_otp, { ...client(master.token), body: { email: 'master@example.com', otp, login: false } })).body).toMatchObject(
      {
        success: true,
      },
    );
    expect((await call(server, apiCalls.factors_update, { ...client(master.token), body: { mfa: 'otp', currentPassword: GOOD_PASSWORD } })).status).toBe(200);
    expect(
      (await callRefused(server, apiCalls.factors_update, { ...client(master.token), body: { mfa: 'none', currentPassword: 'Wrong!pass9' } })).status,
    ).toBe(401);
    expect((await call(server, apiCalls.factors_update, { ...client(master.token), body: { mfa: 'none', currentPassword: GOOD_PASSWORD } })).status).toBe(200);
    const changed = await call(server, apiCalls.password_change, {
      ...client(member.token),
      body: { _id: member.user._id, password: GOOD_PASSWORD, newPassword: 'Changed!2026' },
    });
    expect(changed.status).toBe(200);

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.outcome, r.actorAccountId, r.params])).toEqual([
      ['auth.factor_change', 'allowed', master.user._id, { factor: 'otp', change: 'register', replaced: false }],
      ['auth.factor_change', 'allowed', master.user._id, { factor: 'method', from: 'none', to: 'otp' }],
      ['auth.password_check_failed', 'refused', master.user._id, { purpose: 'change the second factor' }],
      ['auth.factor_change', 'allowed', master.user._id, { factor: 'method', from: 'otp', to: 'none' }],
      ['auth.password_change', 'allowed', member.user._id, {}],
    ]);
    expect(records[2]!.reason).toBe('not_matched_origin_password');
    expect(records.every((r) => r.ip === '127.0.0.1' && r.userAgent === 'AuditTest/2.0')).toBe(true);
  });

  it('records avatar change and delete, account creation and role, group, and default-permission changes', async () => {
    const from = await lastSeq(server);
    const image = await sharp({ create: { width: 64, height: 64, channels: 3, background: '#3366aa' } })
      .png()
      .toBuffer();
    const form = new FormData();
    form.append('file', new Blob([image]), 'me.png');
    const set = await call(server, apiCalls.user_avatar, { token: member.token, params: { id: member.user._id }, body: form });
    expect(set.status).toBe(200);
    expect((await call(server, apiCalls.user_avatar_delete, { ...client(member.token), params: { id: member.user._id } })).status).toBe(200);
    const created = await call(server, apiCalls.user_create, {
      ...client(master.token),
      body: { name: '신입', email: 'new@example.com', password: GOOD_PASSWORD },
    });
    expect(created.status).toBe(200);
    expect((await call(server, apiCalls.user_update, { ...client(master.token), body: { _id: created.body._id, role: 'ADMIN' } })).status).toBe(200);
    const group = await call(server, apiCalls.group_create, { ...client(master.token), body: { name: '감사팀', description: '' } });
    expect(group.status).toBe(200);
    expect(
      (
        await call(server, apiCalls.setting_update, {
          ...client(master.token),
          body: { _id: 'settings', permission: { user: ['READ', 'PREVIEW', 'DOWNLOAD'] } },
        })
      ).status,
    ).toBe(200);
    expect((await call(server, apiCalls.user_update, { ...client(master.token), body: { _id: created.body._id, status: 'BLOCK' } })).status).toBe(200);
    // The last ACTIVE MASTER is not deleted: refused, and nothing recorded for it.
    expect((await callRefused(server, apiCalls.user_delete, { ...client(master.token), body: { accountId: master.user._id } })).status).toBeGreaterThanOrEqual(
      400,
    );
    expect((await call(server, apiCalls.user_delete, { ...client(master.token), body: { accountId: created.body._id } })).status).toBe(200);

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.targetKind, r.targetId])).toEqual([
      ['account.avatar', 'account', member.user._id],
      ['account.avatar', 'account', member.user._id],
      ['account.create', 'account', created.body._id],
      ['account.role', 'account', created.body._id],
      ['group.create', 'group', group.body._id],
      ['permission.default_change', 'setting', 'permission'],
      ['account.status', 'account', created.body._id],
      ['account.delete', 'account', created.body._id],
    ]);
    expect(records[6]!.params).toEqual({ from: 'ACTIVE', to: 'BLOCK' });
    expect(records[7]!.params).toEqual({ byOwner: false });
    expect(records.map((r) => r.params.change ?? null).slice(0, 2)).toEqual(['set', 'delete']);
    expect(records[3]!.params).toMatchObject({ from: 'USER', to: 'ADMIN' });
    expect(records[5]!.params).toMatchObject({ userTo: 'READ,PREVIEW,DOWNLOAD' });
    expect(records.slice(2).every((r) => r.actorAccountId === master.user._id && r.outcome === 'allowed')).toBe(true);
  });

  it('records a rejected licence key with its reason (never the key), admin mode on and off, and settings changes', async () => {
    const from = await lastSeq(server);
    const key = 'not-a-licence-key-0123456789';
    expect((await callRefused(server, apiCalls.license_update, { ...client(master.token), body: { key } })).status).toBe(400);
    expect((await call(server, apiCalls.admin_mode, { ...client(master.token), body: { password: 'Wrong!admin1' } })).body).toEqual({ success: false });
    expect((await call(server, apiCalls.admin_mode, { ...client(master.token), body: { password: GOOD_PASSWORD } })).body).toEqual({ success: true });
    expect((await call(server, apiCalls.admin_mode_off, client(master.token))).status).toBe(200);
    expect((await call(server, apiCalls.trash_retention_update, { ...client(master.token), body: { days: 30 } })).status).toBe(200);

    const records = await recordsOf(server, { afterSeq: from });
    expect(records.map((r) => [r.action, r.outcome, r.reason])).toEqual([
      ['licence.refused', 'refused', 'invalid_license'],
      ['admin_mode.refused', 'refused', 'rules_password_not_match'],
      ['admin_mode.on', 'allowed', null],
      ['admin_mode.off', 'allowed', null],
      ['settings.change', 'allowed', null],
    ]);
    expect(JSON.stringify(records[0])).not.toContain(key);
    expect(records[0]!.params.keyDigest).toMatch(/^[0-9a-f]{16}$/);
    expect(records[4]).toMatchObject({ targetId: 'trash.retention_days', params: { from: null, to: 30 } });
    expect(records.every((r) => r.actorAccountId === master.user._id && r.ip === '127.0.0.1')).toBe(true);
  });
});
