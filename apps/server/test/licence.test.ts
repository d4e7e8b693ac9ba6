import { spawnSync } from 'node:child_process';
import crypto, { type KeyObject } from 'node:crypto';
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, beforeEach, describe, expect, it } from 'vitest';
import { runLicenceVendor } from '../src/cli/licence-vendor-commands.js';
import { ConfigError, loadConfig } from '../src/config.js';
import { newId } from '../src/ids.js';
import { hashPassword } from '../src/modules/auth/passwords.js';
import { type LicencePayload, issueLicenceKey, parseLicencePublicKey } from '../src/modules/licence/licence-key.js';
import { LICENCE_CACHE_MS, TRIAL_SEATS } from '../src/modules/licence/licence.service.js';
import { signIn } from './files-helpers.js';
import { call, callRefused, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

const serverDir = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');
const DAY_MS = 86_400_000;

/** A vendor key pair of this test run; the server is started with its public key. */
function vendorKeys() {
  const { privateKey, publicKey } = crypto.generateKeyPairSync('ed25519');
  return { privateKey, publicKey, publicPem: publicKey.export({ type: 'spki', format: 'pem' }).toString() };
}

const day = (offsetDays: number) => new Date(Date.now() + offsetDays * DAY_MS).toISOString().slice(0, 10);

function payload(serverId: string, over: Partial<LicencePayload> = {}): LicencePayload {
  return {
    org: '보관 주식회사',
    sen: 'SEN-0001',
    serverId,
    type: 'STANDARD',
    user: 25,
    purchase: day(-10),
    maintenance: day(365),
    iat: Math.floor(Date.now() / 1000),
    ...over,
  };
}

describeEachDialect('licence on $dialect', (dialect) => {
  const vendor = vendorKeys();
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let serverId: string;

  beforeAll(async () => {
    server = await startServer(dialect, { BOGWAN_LICENSE_PUBLIC_KEY: vendor.publicPem });
    master = await setupMaster(server);
    serverId = (await call(server, apiCalls.license_check)).body.serverId;
  });
  afterAll(async () => {
    await server?.close();
  });

  const db = () => server.app.db;
  const setSetting = async (key: string, value: unknown) => {
    await db().deleteFrom('settings').where('key', '=', key).execute();
    await db()
      .insertInto('settings')
      .values({ key, value: JSON.stringify(value), updated_at: new Date().toISOString() })
      .execute();
  };
  const expireTrial = async () => {
    await setSetting('licence.trial_started', new Date(Date.now() - 31 * DAY_MS).toISOString());
    server.app.licence.invalidate();
  };
  const issue = (over: Partial<LicencePayload> = {}, key: KeyObject = vendor.privateKey) => issueLicenceKey(payload(serverId, over), key);
  const save = (key: string, token = master.token) => call(server, apiCalls.license_update, { token, body: { key } });
  const saveRefused = (key: string, token = master.token) => callRefused(server, apiCalls.license_update, { token, body: { key } });
  const required = async () => (await call(server, apiCalls.license_check)).body.isVerifyLicenseRequired;

  /** Another account, inserted straight into the database as the account screens will later create it. */
  async function addUser(email: string, over: Record<string, unknown> = {}) {
    const row = await db().selectFrom('users').selectAll().where('id', '=', master.user._id).executeTakeFirstOrThrow();
    await db()
      .insertInto('users')
      .values({
        ...row,
        id: newId(),
        email,
        name: '사용자',
        role: 'USER',
        role_level: 1,
        password_hash: await hashPassword(GOOD_PASSWORD),
        last_login: null,
        ...over,
      })
      .execute();
  }

  beforeEach(async () => {
    // Every test starts on a fresh trial with no key saved.
    await setSetting('licence.trial_started', new Date().toISOString());
    await db().deleteFrom('settings').where('key', '=', 'licence.key').execute();
    await db().deleteFrom('users').where('id', '!=', master.user._id).execute();
    server.app.licence.invalidate();
  });

  it('runs on a 30-day trial from the first start, bound to a server id kept in the settings', async () => {
    const check = await call(server, apiCalls.license_check);
    expect(check.body).toEqual({ isVerifyLicenseRequired: false, serverId: expect.stringMatching(/^[0-9a-f-]{36}$/) });
    const stored = await db().selectFrom('settings').select('value').where('key', '=', 'server.id').executeTakeFirstOrThrow();
    expect(JSON.parse(stored.value)).toBe(check.body.serverId);

    const licence = await call(server, apiCalls.license, { token: master.token });
    expect(licence.body).toMatchObject({ serverId, type: 'TRIAL', trial: true, user: TRIAL_SEATS, seatsUsed: 1, org: '', sen: '' });
    const left = Date.parse(licence.body.expiresAt!) - Date.now();
    expect(left).toBeGreaterThan(29 * DAY_MS);
    expect(left).toBeLessThanOrEqual(30 * DAY_MS);
    await call(server, apiCalls.me, { token: master.token });
  });

  it('shows the licence fields to administrators only, and answers 401 to anonymous callers while valid', async () => {
    await addUser('user@example.com');
    const user = (await signIn(server, 'user@example.com')).token;
    expect(await callRefused(server, apiCalls.license, { token: user })).toMatchObject({
      status: 403,
      body: { statusCode: 403, message: 'no_access_warning' },
    });
    expect((await callRefused(server, apiCalls.license)).status).toBe(401);
  });

  it('closes the gate when the trial has ended, except for sign-in, health, the web app and the licence', async () => {
    await expireTrial();
    const gated = { status: 403, body: { statusCode: 403, message: 'license_required' } };
    expect(await callRefused(server, apiCalls.me, { token: master.token })).toMatchObject(gated);
    expect(await callRefused(server, apiCalls.policy, { token: master.token })).toMatchObject(gated);
    // The licence answer that the web polls: 403 for everyone, signed in or not.
    expect(await callRefused(server, apiCalls.license, { token: master.token })).toMatchObject(gated);
    expect(await callRefused(server, apiCalls.license)).toMatchObject(gated);

    await call(server, apiCalls.health);
    await call(server, apiCalls.setup_status);
    await call(server, apiCalls.login, { body: { email: master.user.email, password: GOOD_PASSWORD } });
    expect((await call(server, apiCalls.license_check)).body).toEqual({ isVerifyLicenseRequired: true, serverId });
    // Unknown routes stay 404; the gate does not hide what does not exist (raw: a route no contract has).
    expect((await server.request('GET', '/api/no-such-call', { token: master.token })).status).toBe(404);
  });

  it('sees a change made by another process within the cache time', async () => {
    expect(await required()).toBe(false);
    await setSetting('licence.trial_started', new Date(Date.now() - 31 * DAY_MS).toISOString());
    expect(await required()).toBe(false);
    await new Promise((resolve) => setTimeout(resolve, LICENCE_CACHE_MS + 200));
    expect(await required()).toBe(true);
  });

  it('releases the gate with a valid key for this server, and shows its fields', async () => {
    await expireTrial();
    const key = issue({ user: 7, type: 'ENTERPRISE', purchase: '2026-01-02' });
    // Line breaks from a mail or a narrow field do not matter.
    const res = await save(`${key.slice(0, 40)}\n${key.slice(40)}\n`);
    expect(res.body).toEqual({ success: true, message: 'license_update_complete_message' });
    expect(await required()).toBe(false);
    await call(server, apiCalls.me, { token: master.token });
    const licence = await call(server, apiCalls.license, { token: master.token });
    expect(licence.body).toEqual({
      org: '보관 주식회사',
      sen: 'SEN-0001',
      serverId,
      type: 'ENTERPRISE',
      user: 7,
      purchase: '2026-01-02',
      maintenance: day(365),
      trial: false,
      expiresAt: new Date(Date.parse(`${day(366)}T00:00:00Z`)).toISOString(),
      seatsUsed: 1,
    });
    expect(licence.text).not.toContain('BOGWAN1');
  });

  it('refuses bad keys with 400 invalid_license and keeps the gate closed', async () => {
    await expireTrial();
    const good = issue();
    const [prefix, body, signature] = good.split('.') as [string, string, string];
    const other = vendorKeys();
    const forgedPayload = Buffer.from(JSON.stringify({ ...payload(serverId), user: 100_000 })).toString('base64url');
    const flipped = Buffer.from(signature, 'base64url');
    flipped[0] = flipped[0]! ^ 1;
    const refused = {
      'payload changed after signing': `${prefix}.${forgedPayload}.${signature}`,
      'signature changed': `${prefix}.${body}.${flipped.toString('base64url')}`,
      'signed by another vendor key': issue({}, other.privateKey),
      'for another server': issue({ serverId: crypto.randomUUID() }),
      'maintenance already ended': issue({ maintenance: day(-1) }),
      'another format version': `BOGWAN2.${body}.${signature}`,
      'no signature': `${prefix}.${body}`,
      garbage: 'not a licence key at all',
      'unsigned JSON': Buffer.from(JSON.stringify(payload(serverId))).toString('base64'),
      empty: '',
      blank: '   ',
      'far too long': 'A'.repeat(9000),
    };
    for (const [what, key] of Object.entries(refused)) {
      const res = await saveRefused(key);
      expect({ what, status: res.status, body: res.body }).toEqual({ what, status: 400, body: { statusCode: 400, message: 'invalid_license' } });
    }
    // Raw: a key that is not a string is input the contract's types do not allow.
    const notString = await server.request('PUT', '/api/system/license', { token: master.token, body: { key: 42 } });
    expect({ what: 'not a string', status: notString.status, body: notString.body }).toEqual({
      what: 'not a string',
      status: 400,
      body: { statusCode: 400, message: 'invalid_license' },
    });
    expect(await required()).toBe(true);
    expect((await callRefused(server, apiCalls.me, { token: master.token })).status).toBe(403);
  });

  it('closes the gate when a saved key is no longer good (maintenance ended, or signed by a key no longer trusted)', async () => {
    await setSetting('licence.key', issue({ maintenance: day(-1) }));
    server.app.licence.invalidate();
    // The trial still runs, so the ended key falls back to it…
    expect(await required()).toBe(false);
    await expireTrial();
    expect(await required()).toBe(true);

    await setSetting('licence.key', issue({}, vendorKeys().privateKey));
    server.app.licence.invalidate();
    expect(await required()).toBe(true);
  });

  it('lets only administrators save a key, even while the gate is closed', async () => {
    await addUser('user@example.com');
    const user = (await signIn(server, 'user@example.com')).token;
    await expireTrial();
    expect(await saveRefused(issue(), user)).toMatchObject({ status: 403, body: { message: 'no_access_warning' } });
    expect((await callRefused(server, apiCalls.license_update, { body: { key: issue() } })).status).toBe(401);
    expect(await required()).toBe(true);
    await save(issue());
    expect(await required()).toBe(false);
  });

  it('counts ACTIVE accounts against the seats of the licence', async () => {
    const licence = server.app.licence;
    await expect(licence.assertSeatAvailable()).resolves.toBeUndefined();
    for (let i = 1; i < TRIAL_SEATS; i += 1) await addUser(`user${i}@example.com`);
    await expect(licence.assertSeatAvailable()).rejects.toMatchObject({ statusCode: 403, messageKey: 'license_seat_limit_reached' });
    await addUser('blocked@example.com', { status: 'BLOCK' });
    await addUser('pending@example.com', { status: 'PENDING' });
    expect((await call(server, apiCalls.license, { token: master.token })).body.seatsUsed).toBe(TRIAL_SEATS);

    await save(issue({ user: TRIAL_SEATS + 1 }));
    await expect(licence.assertSeatAvailable()).resolves.toBeUndefined();
    await save(issue({ user: 3 }));
    await expect(licence.assertSeatAvailable()).rejects.toMatchObject({ messageKey: 'license_seat_limit_reached' });

    await expireTrial();
    await db().deleteFrom('settings').where('key', '=', 'licence.key').execute();
    licence.invalidate();
    await expect(licence.assertSeatAvailable()).rejects.toMatchObject({ statusCode: 403, messageKey: 'license_required' });
  });

  it('accepts a key issued by the vendor command line', async () => {
    await expireTrial();
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-vendor-'));
    try {
      const privateFile = path.join(dir, 'vendor-private.pem');
      fs.writeFileSync(privateFile, vendor.privateKey.export({ type: 'pkcs8', format: 'pem' }), { mode: 0o600 });
      const args = ['--org', 'CLI 고객', '--sen', 'SEN-CLI', '--server-id', serverId, '--type', 'STANDARD', '--users', '5'];
      const cli = spawnSync(
        process.execPath,
        ['--import', 'tsx', 'src/cli/licence-vendor.ts', 'issue', '--private-key', privateFile, ...args, '--purchase', day(0), '--maintenance', day(30)],
        { cwd: serverDir, encoding: 'utf8' },
      );
      expect(cli.stderr).toBe('');
      expect(cli.status).toBe(0);
      const key = cli.stdout.trim();
      expect(key).toMatch(/^BOGWAN1\.[\w-]+\.[\w-]+$/);
      expect(await save(key)).toMatchObject({ status: 200, body: { success: true } });
      const licence = await call(server, apiCalls.license, { token: master.token });
      expect(licence.body).toMatchObject({ org: 'CLI 고객', sen: 'SEN-CLI', user: 5, maintenance: day(30), trial: false });
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe('licence vendor command line and configuration', () => {
  it('generates a key pair whose public half the server configuration accepts, and never overwrites it', () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-keygen-'));
    const out: string[] = [];
    const io = { out: (text: string) => out.push(text), err: (text: string) => out.push(text) };
    try {
      expect(runLicenceVendor(['keygen', '--out', dir], io)).toBe(0);
      const privatePem = fs.readFileSync(path.join(dir, 'vendor-private.pem'), 'utf8');
      const publicPem = fs.readFileSync(path.join(dir, 'vendor-public.pem'), 'utf8');
      expect(fs.statSync(path.join(dir, 'vendor-private.pem')).mode & 0o077).toBe(0);
      expect(loadConfig({ BOGWAN_LICENSE_PUBLIC_KEY: publicPem }).licensePublicKey).toBe(publicPem);
      // base64 of the SPKI DER works too (one line, easier in some environments).
      const der = crypto.createPublicKey(publicPem).export({ type: 'spki', format: 'der' }).toString('base64');
      const key = issueLicenceKey(payload('srv'), privatePem);
      expect(crypto.verify(null, Buffer.from(key.split('.')[1]!, 'base64url'), parseLicencePublicKey(der), Buffer.from(key.split('.')[2]!, 'base64url'))).toBe(
        true,
      );

      expect(runLicenceVendor(['keygen', '--out', dir], io)).toBe(1);
      expect(fs.readFileSync(path.join(dir, 'vendor-private.pem'), 'utf8')).toBe(privatePem);
      expect(runLicenceVendor(['issue', '--private-key', path.join(dir, 'vendor-private.pem'), '--org', 'x'], io)).toBe(1);
      expect(out.join('')).toContain('issue needs --sen');
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('refuses a public key that is not an Ed25519 key', () => {
    const rsa = crypto.generateKeyPairSync('rsa', { modulusLength: 2048 }).publicKey.export({ type: 'spki', format: 'pem' }).toString();
    expect(() => loadConfig({ BOGWAN_LICENSE_PUBLIC_KEY: rsa })).toThrow(ConfigError);
    expect(() => loadConfig({ BOGWAN_LICENSE_PUBLIC_KEY: 'not a key' })).toThrow(/BOGWAN_LICENSE_PUBLIC_KEY/);
  });
});
