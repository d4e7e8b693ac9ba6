import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { type ApiCall, apiCalls, type CallInput, type CallOutput, callPath, callSearch, type MessageKey } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import { describe, inject } from 'vitest';
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
export function dialectsAndBackends(): { dialect: Dialect; skip: boolean; backend: Backend }[] {
  return dialects().flatMap((d) => (['server', 'cloud'] as const).map((backend) => ({ ...d, backend })));
}

export type Backend = 'server' | 'cloud';

/**
 * One suite per dialect (`$dialect` in the title names it). A dialect this run cannot reach skips
 * the whole suite, hooks included; where it is required (CI) the global setup fails the run instead.
 */
export function describeEachDialect(title: string, body: (dialect: Dialect) => void): void {
  for (const { dialect, skip } of dialects()) {
    describe.skipIf(skip)(title.replaceAll('$dialect', dialect), () => body(dialect));
  }
}

/** One suite per dialect and storage backend (`$dialect`, `$backend` in the title), skipped as `describeEachDialect` does. */
export function describeEachDialectAndBackend(title: string, body: (dialect: Dialect, backend: Backend) => void): void {
  for (const { dialect, skip, backend } of dialectsAndBackends()) {
    describe.skipIf(skip)(title.replaceAll('$dialect', dialect).replaceAll('$backend', backend), () => body(dialect, backend));
  }
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
 * How long the test server keeps an idle connection: longer than Node's fetch ever keeps one
 * (at most 600 s, its keepAliveMaxTimeout), so the client always lets go first. With the
 * server's 72 s, fetch keeps an idle connection until shortly before the server's timeout, by
 * coarse timers; on a busy machine (client and server share one event loop here) it sent a
 * chunk on a connection the server closed that moment, and the test saw ECONNRESET ("fetch
 * failed"). Every HTTP/1.1 client meets this race; browsers retry such a request, fetch does not.
 */
const TEST_KEEP_ALIVE_MS = 15 * 60_000;

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
    // A test machine running many suites at once is slower than production by an unknown
    // factor: bursts in tests wait for their turn instead of being shed (admission.test.ts
    // tests the shedding with its own limits).
    BOGWAN_MAX_QUEUE_WAIT_MS: '60000',
    ...(database ? { DATABASE_URL: database.url } : {}),
    ...env,
  });
  const app = await buildApp(config);
  await app.listen({ port: 0, host: '127.0.0.1' });
  app.server.keepAliveTimeout = TEST_KEEP_ALIVE_MS;
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
      if (stalled)
        console.warn(
          `test server ${url} (${dialect}) did not finish closing within 20 s; moving on. Active resources: ${process.getActiveResourcesInfo().join(', ')}`,
        );
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
    let body: string | FormData | undefined;
    if (options.body instanceof FormData) {
      // fetch sets the multipart content type with its boundary.
      body = options.body;
    } else if (options.body !== undefined) {
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

/** How a test calls through the contracts: the call's typed input, and the credentials and headers to send. */
export type CallOptions<C extends ApiCall> = CallInput<C> & Omit<RequestOptions, 'body'>;

/** A successful answer, its body typed by the call's contract. */
export interface CallAnswer<T> extends Omit<TestResponse, 'body'> {
  body: T;
}

/** A refusal: the API's one error body. */
export interface RefusalAnswer extends Omit<TestResponse, 'body'> {
  body: { statusCode: number; message: MessageKey };
}

// `{}` on purpose: a call whose options are all optional may be made without any.
// eslint-disable-next-line @typescript-eslint/no-empty-object-type
type CallArgs<C extends ApiCall> = {} extends CallOptions<C> ? [options?: CallOptions<C>] : [options: CallOptions<C>];

/** What `send` reads of any call's options. */
type LooseCallOptions = { params?: Record<string, string>; query?: unknown; body?: unknown } & Omit<RequestOptions, 'body'>;

async function send(target: HttpTarget, call: ApiCall, options: object = {}): Promise<TestResponse> {
  const { params, query, body, ...rest } = options as LooseCallOptions;
  return target.request(call.method, callPath(call, params) + callSearch(query), { ...rest, body });
}

/**
 * Makes one call of the contracts (`apiCalls.trash_list`) and answers its typed body; a refusal
 * throws with the status and message key, so a test that expects success reads as such.
 */
export async function call<C extends ApiCall>(target: HttpTarget, contract: C, ...[options]: CallArgs<C>): Promise<CallAnswer<CallOutput<C>>> {
  const res = await send(target, contract, options);
  if (res.status >= 400) throw new Error(`${contract.method} ${contract.path} answered ${res.status} ${res.text}`);
  return res as CallAnswer<CallOutput<C>>;
}

/**
 * The raw answer of a contract's call, its input typed by the contract: for races, bursts and
 * polls, where an answer may be a success or a refusal (`call` and `callRefused` each expect one).
 */
export function answerOf<C extends ApiCall>(target: HttpTarget, contract: C, ...[options]: CallArgs<C>): Promise<TestResponse> {
  return send(target, contract, options);
}

/** Makes one call that must be refused and answers the refusal's `{statusCode, message}`; a success throws. */
export async function callRefused<C extends ApiCall>(target: HttpTarget, contract: C, ...[options]: CallArgs<C>): Promise<RefusalAnswer> {
  const res = await send(target, contract, options);
  if (res.status < 400) throw new Error(`${contract.method} ${contract.path} was expected to be refused, answered ${res.status}`);
  return res as RefusalAnswer;
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
  const res = await call(server, apiCalls.setup, {
    body: { token, name: '관리자', email: 'master@example.com', password: GOOD_PASSWORD, ...overrides },
  });
  return { ...res.body, refresh: res.cookies.bogwan_refresh! };
}
