import http from 'node:http';
import { apiCalls } from '@bogwan/contracts';
import { signInAs } from './files-helpers.js';
import { call, GOOD_PASSWORD, type HttpTarget, type TestServer, setupMaster } from './harness.js';

/** An app password made through the API (Settings → Security) for the account of `token`. */
export async function makeAppPassword(server: HttpTarget, token: string, name = 'rclone'): Promise<string> {
  const res = await call(server, apiCalls.app_password_create, { token, body: { name, currentPassword: GOOD_PASSWORD } });
  if (res.status !== 201) throw new Error(`app password: ${res.status} ${res.text}`);
  return res.body.password;
}

/** `Authorization: Basic …` of an e-mail and a password. */
export function basic(email: string, password: string): string {
  return `Basic ${Buffer.from(`${email}:${password}`, 'utf8').toString('base64')}`;
}

/** An account that speaks WebDAV: its API token (for the web's calls) and its Basic header. */
export interface DavAccount {
  token: string;
  userId: string;
  auth: string;
}

/** The first account (MASTER) with an app password. */
export async function davMaster(server: TestServer): Promise<DavAccount> {
  const master = await setupMaster(server);
  return { token: master.token, userId: master.user._id, auth: basic('master@example.com', await makeAppPassword(server, master.token)) };
}

/** A USER (or ADMIN) account with an app password. */
export async function davUser(server: TestServer, email: string, role: 'USER' | 'ADMIN' = 'USER'): Promise<DavAccount> {
  const user = await signInAs(server, email, role);
  return { token: user.token, userId: user.user._id, auth: basic(email, await makeAppPassword(server, user.token)) };
}

export interface DavResponse {
  status: number;
  headers: Headers;
  text: string;
  bytes: Buffer;
}

/** One WebDAV request through fetch. `path` is sent as given (already percent-encoded). */
export async function dav(
  server: HttpTarget,
  method: string,
  path: string,
  options: { auth?: string; headers?: Record<string, string>; body?: string | Buffer | ReadableStream<Uint8Array> } = {},
): Promise<DavResponse> {
  const headers: Record<string, string> = { ...options.headers };
  if (options.auth) headers.authorization = options.auth;
  if (typeof options.body === 'string' && !Object.keys(headers).some((h) => h.toLowerCase() === 'content-type'))
    headers['content-type'] = 'application/xml; charset=utf-8';
  const init: RequestInit & { duplex?: 'half' } = { method, headers, body: options.body as RequestInit['body'] };
  if (options.body instanceof ReadableStream) init.duplex = 'half';
  const res = await fetch(server.url + path, init);
  const bytes = Buffer.from(await res.arrayBuffer());
  return { status: res.status, headers: res.headers, text: bytes.toString('utf8'), bytes };
}

/**
 * A request written with node:http, so the path goes out exactly as given (fetch would
 * resolve `..` and re-encode). Answers status, headers and body text.
 */
export function rawRequest(
  url: string,
  method: string,
  path: string,
  headers: Record<string, string | number>,
  body?: Buffer | string,
): Promise<{ status: number; headers: http.IncomingHttpHeaders; text: string }> {
  const target = new URL(url);
  return new Promise((resolve, reject) => {
    const req = http.request({ host: target.hostname, port: target.port, method, path, headers }, (res) => {
      const pieces: Buffer[] = [];
      res.on('data', (piece: Buffer) => pieces.push(piece));
      res.on('end', () => resolve({ status: res.statusCode ?? 0, headers: res.headers, text: Buffer.concat(pieces).toString('utf8') }));
      res.on('error', reject);
    });
    req.on('error', reject);
    if (body !== undefined) req.write(body);
    req.end();
  });
}

/** Percent-encodes each segment of a tree path under `/dav`. */
export function davPath(treePath: string, folder = false): string {
  const encoded = treePath
    .split('/')
    .map((s) => encodeURIComponent(s))
    .join('/');
  return `/dav${encoded}${folder && !encoded.endsWith('/') ? '/' : ''}`;
}

/** The hrefs of a multistatus body, decoded. */
export function hrefsOf(xml: string): string[] {
  return [...xml.matchAll(/<D:href>([^<]*)<\/D:href>/g)].map((m) => decodeURIComponent(m[1]!));
}

/** The `<D:response>` of one href (decoded) in a multistatus body. */
export function responseOf(xml: string, href: string): string | undefined {
  return xml.split('<D:response>').find((part) => part.includes('<D:href>') && decodeURIComponent(/<D:href>([^<]*)</.exec(part)?.[1] ?? '') === href);
}

export const PROPFIND_ALL = '<?xml version="1.0" encoding="utf-8"?><D:propfind xmlns:D="DAV:"><D:allprop/></D:propfind>';

/**
 * A root folder on the backend: on `cloud`, the installation's bucket is set first (admin mode,
 * then the storage setting) from the test's s3rver.
 */
export async function davRoot(server: TestServer, token: string, name: string, backend: 'server' | 'cloud', bucket: () => Promise<string>): Promise<void> {
  if (backend === 'cloud') {
    const admin = await call(server, apiCalls.admin_mode, { token, body: { password: GOOD_PASSWORD } });
    if (admin.status !== 200) throw new Error(`admin mode: ${admin.status} ${admin.text}`);
    const saved = await call(server, apiCalls.storage_setting_update, { token, body: { cloud: { bucket: await bucket() } } });
    if (saved.status !== 200) throw new Error(`bucket: ${saved.status} ${saved.text}`);
  }
  const made = await call(server, apiCalls.folder_create, { token, body: { name, path: '/', backend } });
  if (made.status !== 200) throw new Error(`root: ${made.status} ${made.text}`);
}
