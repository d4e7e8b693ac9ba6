import { createHmac, randomBytes } from 'node:crypto';
import fs from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { apiCalls } from '@bogwan/contracts';
import SQLite from 'better-sqlite3';
import { generate } from 'otplib';
import { afterAll, beforeAll, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { SEALED_PREFIX } from '../src/crypto/secret-box.js';
import { sqliteFiles } from '../src/db/index.js';
import { shareKeyHash } from '../src/modules/shares/share-keys.js';
import { signInAs } from './files-helpers.js';
import { call, describeEachDialect, GOOD_PASSWORD, setupMaster, startServer, type TestServer } from './harness.js';

const EMAIL = 'master@example.com';
const ACCESS_TOKEN = 'at-rest-access-token-0123456789';

const modeOf = (file: string) => fs.statSync(file).mode & 0o777;

/** A receiver of outgoing webhook deliveries on loopback. */
async function receiver() {
  const received: { signature: string; body: string }[] = [];
  const server = http.createServer((request, response) => {
    let body = '';
    request.on('data', (piece) => (body += piece));
    request.on('end', () => {
      received.push({ signature: String(request.headers['x-bogwan-signature']), body });
      response.end('ok');
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return { port: (server.address() as AddressInfo).port, received, close: () => new Promise<void>((resolve) => server.close(() => resolve())) };
}

function signedWith(secret: string, header: string, body: string): boolean {
  const parts = Object.fromEntries(header.split(',').map((p) => p.split('=') as [string, string]));
  return createHmac('sha256', secret).update(`${parts.t}.${body}`).digest('hex') === parts.v1;
}

describeEachDialect('secrets at rest on $dialect', (dialect) => {
  let server: TestServer;
  let master: Awaited<ReturnType<typeof setupMaster>>;
  let admin: Awaited<ReturnType<typeof signInAs>>;
  const closers: (() => Promise<void>)[] = [];

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await setupMaster(server);
    admin = await signInAs(server, 'admin@example.com', 'ADMIN');
    expect((await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Docs', path: '/' } })).status).toBe(200);
  });
  afterAll(async () => {
    for (const close of closers) await close();
    await server?.close();
  });

  /** Everything the database holds, as text an attacker with a copy of it would search. */
  const databaseText = async (): Promise<string> => {
    if (dialect === 'sqlite') {
      const file = (server.config.database as { file: string }).file;
      return sqliteFiles(file)
        .filter((f) => fs.existsSync(f))
        .map((f) => fs.readFileSync(f).toString('latin1'))
        .join('\n');
    }
    const tables = ['users', 'shares', 'incoming_webhooks', 'outgoing_webhooks'] as const;
    const rows = await Promise.all(tables.map((t) => server.app.db.selectFrom(t).selectAll().execute()));
    return JSON.stringify(rows);
  };

  const signInWithCode = async (secret: string) => {
    const first = await call(server, apiCalls.login, { body: { email: EMAIL, password: GOOD_PASSWORD } });
    expect(first.body).toEqual({ mfa: 'otp', email: EMAIL });
    // One step on from the code that confirmed the app (a code is accepted once).
    const epoch = Math.floor(Date.now() / 1000) + 30;
    return call(server, apiCalls.verify_otp, {
      body: { email: EMAIL, otp: await generate({ secret, epoch }), login: true },
      cookies: { bogwan_challenge: first.cookies.bogwan_challenge! },
    });
  };

  it('keeps the SQLite database and its journal files owner-only, in an owner-only data directory', async () => {
    if (dialect !== 'sqlite') return;
    const file = (server.config.database as { file: string }).file;
    expect(modeOf(server.config.dataDir)).toBe(0o700);
    const present = sqliteFiles(file).filter((f) => fs.existsSync(f));
    expect(present).toEqual(expect.arrayContaining([file, `${file}-wal`, `${file}-shm`]));
    expect(present.map((f) => [path.basename(f), modeOf(f)])).toEqual(present.map((f) => [path.basename(f), 0o600]));
  });

  it('narrows an existing world-readable data directory and database at start-up', async () => {
    if (dialect !== 'sqlite') return;
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-modes-'));
    try {
      const dataDir = path.join(dir, 'data');
      fs.mkdirSync(dataDir, { mode: 0o755 });
      fs.chmodSync(dataDir, 0o755);
      const file = path.join(dataDir, 'bogwan.sqlite');
      const old = new SQLite(file);
      old.exec('pragma journal_mode = WAL; create table t (x); insert into t values (1);');
      for (const f of sqliteFiles(file)) if (fs.existsSync(f)) fs.chmodSync(f, 0o644);
      const app = await buildApp({ ...server.config, dataDir, database: { dialect: 'sqlite', file } });
      old.close();
      try {
        expect(modeOf(dataDir)).toBe(0o700);
        for (const f of sqliteFiles(file).filter((f) => fs.existsSync(f))) expect([path.basename(f), modeOf(f)]).toEqual([path.basename(f), 0o600]);
      } finally {
        await app.close();
      }
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('stores no authenticator secret, share key or webhook token in plain text, and all of them still work', async () => {
    // Authenticator app.
    const qr = await call(server, apiCalls.otp_register, { token: master.token, body: { email: EMAIL, currentPassword: GOOD_PASSWORD } });
    expect(qr.status).toBe(200);
    const totpSecret = qr.body.secret;
    const confirm = await call(server, apiCalls.verify_otp, {
      token: master.token,
      body: { email: EMAIL, otp: await generate({ secret: totpSecret }), login: false },
    });
    expect(confirm.body).toMatchObject({ success: true });
    expect((await call(server, apiCalls.factors_update, { token: master.token, body: { mfa: 'otp', currentPassword: GOOD_PASSWORD } })).status).toBe(200);

    // Share link; its owner sees the link again.
    const shared = await call(server, apiCalls.share_create, { token: master.token, body: { path: '/Docs', scope: 'anyone' } });
    expect(shared.status).toBe(200);
    const shareKey = shared.body.key;
    const mine = await call(server, apiCalls.share_list, { token: master.token });
    expect(mine.body.mine.map((s) => s.key)).toContain(shareKey);

    // Incoming webhook (its access token) and outgoing webhook (its signing secret).
    const incoming = await call(server, apiCalls.webhook_create, {
      token: admin.token,
      body: { title: 'scanner', description: '', token: 'at-rest-hook', accessToken: ACCESS_TOKEN, path: '/Docs' },
    });
    expect(incoming.status).toBe(200);
    const target = await receiver();
    closers.push(target.close);
    expect((await call(server, apiCalls.webhook_allowed_hosts_update, { token: admin.token, body: { hosts: ['localhost'] } })).status).toBe(200);
    const outgoing = await call(server, apiCalls.webhook_outgoing_create, {
      token: admin.token,
      body: { title: 'Audit', url: `http://localhost:${target.port}/hook`, events: ['upload'] },
    });
    expect(outgoing.status).toBe(200);
    const webhookSecret = outgoing.body.secret;

    const text = await databaseText();
    for (const [what, secret] of [
      ['authenticator secret', totpSecret],
      ['share key', shareKey],
      ['incoming webhook access token', ACCESS_TOKEN],
      ['outgoing webhook signing secret', webhookSecret],
    ]) {
      expect([what, text.includes(secret!)]).toEqual([what, false]);
    }
    const user = await server.app.db.selectFrom('users').select(['otp_secret']).where('email', '=', EMAIL).executeTakeFirstOrThrow();
    expect(user.otp_secret).toMatch(new RegExp(`^${SEALED_PREFIX}`));

    // Everything still works: sign-in with an authenticator code, the share link, both webhooks.
    const signedIn = await signInWithCode(totpSecret);
    expect([signedIn.status, signedIn.body.success]).toEqual([200, true]);
    expect((await call(server, apiCalls.share_public, { params: { key: shareKey } })).status).toBe(200);
    const form = new FormData();
    form.append('file', new Blob([Buffer.from('scanned')]), 'scan.txt');
    const delivered = await call(server, apiCalls.webhook_incoming_call, { token: ACCESS_TOKEN, params: { token: 'at-rest-hook' }, body: form });
    expect(delivered.status).toBe(200);
    await expect.poll(() => target.received.length, { timeout: 5000 }).toBeGreaterThan(0);
    expect(signedWith(webhookSecret, target.received[0]!.signature, target.received[0]!.body)).toBe(true);
  });

  it('seals secrets that older versions stored in plain text when a server starts, once', async () => {
    const plainTotp = 'JBSWY3DPEHPK3PXPJBSWY3DPEHPK3PXP';
    const owner = await signInAs(server, 'legacy@example.com');
    await server.app.db.updateTable('users').set({ otp_secret: plainTotp, otp_last_step: 0, mfa: 'otp' }).where('id', '=', owner.user._id).execute();
    const made = await call(server, apiCalls.share_create, { token: master.token, body: { path: '/Docs', scope: 'anyone' } });
    const legacyKey = randomBytes(32).toString('base64url');
    await server.app.db
      .updateTable('shares')
      .set({ key: legacyKey, key_hash: shareKeyHash(legacyKey) })
      .where('id', '=', made.body._id)
      .execute();

    // Another process starting on the same database (as after an upgrade) seals them.
    const second = await buildApp(server.config);
    await second.close();

    const user = await server.app.db.selectFrom('users').select(['otp_secret']).where('id', '=', owner.user._id).executeTakeFirstOrThrow();
    const share = await server.app.db.selectFrom('shares').select(['key']).where('id', '=', made.body._id).executeTakeFirstOrThrow();
    expect(user.otp_secret?.startsWith(SEALED_PREFIX)).toBe(true);
    expect(share.key.startsWith(SEALED_PREFIX)).toBe(true);
    const sealedOnce = share.key;
    // Nor do the database files keep the plain values in freed space or the journal.
    const text = await databaseText();
    expect([text.includes(plainTotp), text.includes(legacyKey)]).toEqual([false, false]);

    // They still work, and a further start leaves sealed values alone.
    expect((await call(server, apiCalls.share_public, { params: { key: legacyKey } })).status).toBe(200);
    const first = await call(server, apiCalls.login, { body: { email: 'legacy@example.com', password: GOOD_PASSWORD } });
    const verified = await call(server, apiCalls.verify_otp, {
      body: { email: 'legacy@example.com', otp: await generate({ secret: plainTotp }), login: true },
      cookies: { bogwan_challenge: first.cookies.bogwan_challenge! },
    });
    expect([verified.status, verified.body.success]).toEqual([200, true]);
    const third = await buildApp(server.config);
    await third.close();
    expect((await server.app.db.selectFrom('shares').select(['key']).where('id', '=', made.body._id).executeTakeFirstOrThrow()).key).toBe(sealedOnce);
  });
});
