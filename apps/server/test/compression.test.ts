import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import zlib from 'node:zlib';
import { apiCalls } from '@bogwan/contracts';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { compressAssets } from '../../web/build/compress-assets.js';
import { type DavAccount, dav, davMaster, davPath } from './dav-helpers.js';
import { call, describeEachDialect, startServer, type TestServer } from './harness.js';
import { upload } from './transfer-helpers.js';

const BUILT_WEB_APP = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');
const SIGN_IN_JS_BUDGET = 300 * 1024;

interface RawAnswer {
  status: number;
  headers: http.IncomingHttpHeaders;
  /** The body as sent, not decoded. */
  body: Buffer;
}

/** A GET with node:http, which (unlike fetch) neither asks for nor undoes any encoding on its own. */
function rawGet(url: string, headers: Record<string, string> = {}): Promise<RawAnswer> {
  return new Promise((resolve, reject) => {
    http
      .get(url, { headers }, (res) => {
        const pieces: Buffer[] = [];
        res.on('data', (piece: Buffer) => pieces.push(piece));
        res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, body: Buffer.concat(pieces) }));
        res.on('error', reject);
      })
      .on('error', reject);
  });
}

function decode(answer: RawAnswer): Buffer {
  const encoding = answer.headers['content-encoding'];
  if (encoding === 'br') return zlib.brotliDecompressSync(answer.body);
  if (encoding === 'gzip') return zlib.gunzipSync(answer.body);
  return answer.body;
}

const varies = (answer: RawAnswer) => /accept-encoding/i.test(String(answer.headers.vary ?? ''));

/** A web build of our own: an index page, a large script and an image, compressed as the build does. */
function makeWebApp(): { dir: string; script: Buffer } {
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-web-'));
  fs.mkdirSync(path.join(dir, 'assets'));
  const script = Buffer.from(Array.from({ length: 2000 }, (_, i) => `export const value${i} = ${JSON.stringify(`line ${i % 37}`)};\n`).join(''));
  fs.writeFileSync(path.join(dir, 'assets', 'index-abc123.js'), script);
  fs.writeFileSync(path.join(dir, 'assets', 'photo-abc123.png'), Buffer.alloc(4096, 7));
  fs.writeFileSync(
    path.join(dir, 'index.html'),
    '<!doctype html><html><head><script type="module" src="/assets/index-abc123.js"></script></head><body></body></html>',
  );
  compressAssets(dir);
  return { dir, script };
}

describe('pre-compressed web assets', () => {
  let server: TestServer;
  const web = makeWebApp();
  const asset = '/assets/index-abc123.js';

  beforeAll(async () => {
    server = await startServer('sqlite', { BOGWAN_WEB_DIR: web.dir });
  });
  afterAll(async () => {
    await server?.close();
    fs.rmSync(web.dir, { recursive: true, force: true });
  });

  it('sends the brotli copy to a client that accepts it, with Vary, its own length and its own ETag', async () => {
    const br = await rawGet(server.url + asset, { 'accept-encoding': 'gzip, deflate, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(varies(br)).toBe(true);
    expect(br.headers['content-type']).toMatch(/javascript/);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    expect(br.body.length).toBe(fs.statSync(path.join(web.dir, `${asset}.br`)).size);
    expect(br.body.length).toBeLessThan(web.script.length / 5);
    expect(decode(br).equals(web.script)).toBe(true);

    const plain = await rawGet(server.url + asset);
    expect(plain.headers['content-encoding']).toBeUndefined();
    expect(varies(plain)).toBe(true);
    expect(plain.body.equals(web.script)).toBe(true);
    expect(plain.headers.etag).toBeDefined();
    expect(br.headers.etag).not.toBe(plain.headers.etag);
  });

  it('sends gzip to a client that accepts only gzip', async () => {
    const gz = await rawGet(server.url + asset, { 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(decode(gz).equals(web.script)).toBe(true);
  });

  it('answers a byte range from the file itself, never from a compressed copy', async () => {
    const part = await rawGet(server.url + asset, { 'accept-encoding': 'br, gzip', range: 'bytes=100-199' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.equals(web.script.subarray(100, 200))).toBe(true);
  });

  it('keeps no compressed copy of an image', async () => {
    expect(fs.existsSync(path.join(web.dir, 'assets', 'photo-abc123.png.br'))).toBe(false);
    const image = await rawGet(`${server.url}/assets/photo-abc123.png`, { 'accept-encoding': 'br, gzip' });
    expect(image.status).toBe(200);
    expect(image.headers['content-encoding']).toBeUndefined();
  });
});

describeEachDialect('compressed JSON answers on $dialect', (dialect) => {
  let server: TestServer;
  let master: DavAccount;
  // Compressible text of a type that is not JSON, and JSON kept as a file.
  const document = Buffer.from(JSON.stringify({ rows: Array.from({ length: 400 }, (_, i) => ({ row: i, note: 'the same note again' })) }));

  beforeAll(async () => {
    server = await startServer(dialect);
    master = await davMaster(server);
    await call(server, apiCalls.folder_create, { token: master.token, body: { name: 'Docs', path: '/' } });
    expect((await upload(server, master.token, '/Docs', 'rows.json', document)).status).toBe(200);
  });
  afterAll(async () => {
    await server?.close();
  });

  it('compresses a JSON answer over 1 KB for a client that accepts brotli or gzip, not for one that does not', async () => {
    const auth = { authorization: `Bearer ${master.token}` };
    const br = await rawGet(`${server.url}/api/policy`, { ...auth, 'accept-encoding': 'gzip, br' });
    expect(br.status).toBe(200);
    expect(br.headers['content-encoding']).toBe('br');
    expect(varies(br)).toBe(true);
    expect(Number(br.headers['content-length'])).toBe(br.body.length);
    const policies = JSON.parse(decode(br).toString('utf8')) as unknown[];
    expect(policies.length).toBeGreaterThan(20);

    const gz = await rawGet(`${server.url}/api/policy`, { ...auth, 'accept-encoding': 'gzip' });
    expect(gz.headers['content-encoding']).toBe('gzip');
    expect(JSON.parse(decode(gz).toString('utf8'))).toEqual(policies);

    const refused = await rawGet(`${server.url}/api/policy`, { ...auth, 'accept-encoding': 'br;q=0, gzip;q=0' });
    expect(refused.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(refused.body.toString('utf8'))).toEqual(policies);
    expect(br.body.length).toBeLessThan(refused.body.length / 3);
  });

  it('leaves a small JSON answer as it is', async () => {
    const small = await rawGet(`${server.url}/api/health`, { 'accept-encoding': 'br, gzip' });
    expect(small.status).toBe(200);
    expect(small.headers['content-encoding']).toBeUndefined();
    expect(JSON.parse(small.body.toString('utf8'))).toEqual({ status: 'ok' });
  });

  it('never compresses a file download, a ranged download or a WebDAV GET, even of JSON', async () => {
    const auth = { authorization: `Bearer ${master.token}`, 'accept-encoding': 'br, gzip' };
    const whole = await rawGet(`${server.url}/api/file/download?path=${encodeURIComponent('/Docs/rows.json')}`, auth);
    expect(whole.status).toBe(200);
    expect(whole.headers['content-encoding']).toBeUndefined();
    expect(whole.body.equals(document)).toBe(true);

    const part = await rawGet(`${server.url}/api/file/download?path=${encodeURIComponent('/Docs/rows.json')}`, { ...auth, range: 'bytes=0-2047' });
    expect(part.status).toBe(206);
    expect(part.headers['content-encoding']).toBeUndefined();
    expect(part.body.equals(document.subarray(0, 2048))).toBe(true);

    const viaDav = await rawGet(server.url + davPath('/Docs/rows.json'), { authorization: master.auth, 'accept-encoding': 'br, gzip' });
    expect(viaDav.status).toBe(200);
    expect(viaDav.headers['content-encoding']).toBeUndefined();
    expect(viaDav.body.equals(document)).toBe(true);
    // And fetch (which asks for compression itself) reads the same bytes.
    expect((await dav(server, 'GET', davPath('/Docs/rows.json'), { auth: master.auth })).bytes.equals(document)).toBe(true);
  });
});

// The real build (`npm run build`; .ci/run builds before the tests, so CI never skips this).
const noBuild = !fs.existsSync(path.join(BUILT_WEB_APP, 'index.html'));
describe('the built web app', () => {
  let server: TestServer;
  beforeAll(async () => {
    if (noBuild && process.env.CI) throw new Error(`no web build at ${BUILT_WEB_APP}: run \`npm run build\` first`);
    if (!noBuild) server = await startServer('sqlite', { BOGWAN_WEB_DIR: BUILT_WEB_APP });
  });
  afterAll(async () => {
    await server?.close();
  });

  it.skipIf(noBuild && !process.env.CI)(`loads at most ${SIGN_IN_JS_BUDGET / 1024} KB of compressed JavaScript for the sign-in page`, async () => {
    const page = await rawGet(`${server.url}/auth/login`, { 'accept-encoding': 'br, gzip' });
    expect(page.status).toBe(200);
    const html = decode(page).toString('utf8');
    const scripts = [...html.matchAll(/<script[^>]+src="([^"]+)"|<link[^>]+rel="modulepreload"[^>]+href="([^"]+)"/g)].map((m) => m[1] ?? m[2]!);
    expect(scripts.length).toBeGreaterThan(0);
    let total = 0;
    for (const script of scripts) {
      const answer = await rawGet(server.url + script, { 'accept-encoding': 'gzip, deflate, br' });
      expect(answer.status).toBe(200);
      // Scripts under 1 KB keep no compressed copy (it would save less than its headers cost).
      if (decode(answer).length >= 1024) expect(answer.headers['content-encoding']).toBe('br');
      total += answer.body.length;
    }
    expect(total).toBeLessThanOrEqual(SIGN_IN_JS_BUDGET);
  });
});
