import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import { inject } from 'vitest';
import { buildApp } from '../src/app.js';
import { type Config, loadConfig } from '../src/config.js';
import { type Db, openDb } from '../src/db/index.js';
import { createTestDatabase } from './postgres.js';

export type Dialect = 'sqlite' | 'postgres';

/** The dialects this run covers, each with whether it is skipped (PostgreSQL unreachable outside CI). */
export function dialects(): { dialect: Dialect; skip: boolean }[] {
  return [
    { dialect: 'sqlite', skip: false },
    { dialect: 'postgres', skip: !inject('postgres') },
  ];
}

/** Every dialect with each storage backend: a suite per pair. */
export function dialectsAndBackends(): { dialect: Dialect; skip: boolean; backend: 'server' | 'cloud' }[] {
  return dialects().flatMap((d) => (['server', 'cloud'] as const).map((backend) => ({ ...d, backend })));
}

export interface TestServer {
  url: string;
  app: FastifyInstance;
  dataDir: string;
  config: Config;
  request: (method: string, urlPath: string, options?: RequestOptions) => Promise<TestResponse>;
  close: () => Promise<void>;
}

/** What calls over HTTP need of a server: its address and the JSON client (a proxy in front of several has both too). */
export type HttpTarget = Pick<TestServer, 'url' | 'request'>;

export interface RequestOptions {
  body?: unknown;
  token?: string;
  /** Cookies to send, as name → value. */
  cookies?: Record<string, string>;
  headers?: Record<string, string>;
}

export interface TestResponse {
  status: number;
  headers: Headers;
  body: any;
  text: string;
  /** Cookies the answer set (name → value; '' when cleared). */
  cookies: Record<string, string>;
}

/**
 * Starts the real server on a random loopback port with a temporary data directory
 * and a fresh database of the given dialect; `close` removes all of it.
 */
export async function startServer(dialect: Dialect, env: Record<string, string> = {}): Promise<TestServer> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-test-'));
  const database = dialect === 'postgres' ? await createTestDatabase() : undefined;
  const config = loadConfig({
    BOGWAN_DATA_DIR: dataDir,
    BOGWAN_WEB_DIR: path.join(dataDir, 'no-web-build'),
    LOG_LEVEL: 'silent',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  const address = app.server.address();
  if (!address || typeof address === 'string') throw new Error('no port');
  const url = `http://127.0.0.1:${address.port}`;

  const request = requester(url);

  return {
    url,
    app,
    dataDir,
    config,
    request,
    close: async () => {
      // The test is over: no request is worth waiting for (keep-alive sockets of the test's
      // own fetch calls included). A close that still stalls is reported, not waited on for
      // ever: it was seen under full-suite load only, with every test of the file passed.
      app.server.closeAllConnections();
      const stalled = await Promise.race([app.close().then(() => false), new Promise<boolean>((resolve) => setTimeout(() => resolve(true), 20_000).unref())]);
      if (stalled) console.warn(`test server ${url} (${dialect}) did not finish closing within 20 s; moving on. Active resources: ${process.getActiveResourcesInfo().join(', ')}`);
      await database?.drop().catch((error: unknown) => {
        if (!stalled) throw error;
        console.warn(`test database of ${url} not dropped: ${String(error)}`);
      });
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/** Calls of the HTTP API at `url` (a server, or a proxy in front of several), JSON in and out. */
export function requester(url: string): TestServer['request'] {
  return async (method, urlPath, options = {}) => {
    const headers: Record<string, string> = { ...options.headers };
    if (options.token) headers.authorization = `Bearer ${options.token}`;
    if (options.cookies) {
      headers.cookie = Object.entries(options.cookies)
        .map(([k, v]) => `${k}=${v}`)
        .join('; ');
    }
    let body: string | undefined;
    if (options.body !== undefined) {
      headers['content-type'] ??= 'application/json';
      body = typeof options.body === 'string' ? options.body : JSON.stringify(options.body);
    }
    const res = await fetch(url + urlPath, { method, headers, body });
    const text = await res.text();
    let parsed: unknown = text;
    try {
      parsed = text ? JSON.parse(text) : undefined;
    } catch {
      // not JSON: keep the text
    }
    const cookies: Record<string, string> = {};
    for (const line of res.headers.getSetCookie()) {
      const [pair] = line.split(';');
      const eq = pair!.indexOf('=');
      cookies[pair!.slice(0, eq)] = decodeURIComponent(pair!.slice(eq + 1));
    }
    return { status: res.status, headers: res.headers, body: parsed, text, cookies };
  };
}

/** An empty database of the dialect, not migrated; `close` destroys and deletes it. */
export async function openTestDb(dialect: Dialect): Promise<{ db: Db; close: () => Promise<void> }> {
  if (dialect === 'postgres') {
    const database = await createTestDatabase();
    const db = openDb({ dialect: 'postgres', url: database.url });
    return { db, close: () => db.destroy().then(database.drop) };
  }
  const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-db-'));
  const db = openDb({ dialect: 'sqlite', file: path.join(dir, 'db.sqlite') });
  return { db, close: () => db.destroy().then(() => fs.rmSync(dir, { recursive: true, force: true })) };
}

export const GOOD_PASSWORD = 'Bogwan!2026';

/** Creates the first account through the real setup call; answers its session. */
export async function setupMaster(server: TestServer, overrides: Partial<Record<'name' | 'email' | 'password', string>> = {}) {
  const token = fs.readFileSync(path.join(server.dataDir, 'setup-token'), 'utf8').trim();
  const res = await server.request('POST', '/api/auth/setup', {
    body: { token, name: '관리자', email: 'master@example.com', password: GOOD_PASSWORD, ...overrides },
  });
  if (res.status !== 200) throw new Error(`setup failed: ${res.status} ${res.text}`);
  return { ...(res.body as { user: { _id: string; email: string; roleLevel: number }; token: string }), refresh: res.cookies.bogwan_refresh! };
}
