import { type ChildProcess, spawn } from 'node:child_process';
import fs from 'node:fs';
import net from 'node:net';
import os from 'node:os';
import path from 'node:path';
import { fileURLToPath } from 'node:url';
import { test as base, expect, type Page } from '@playwright/test';

const root = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

export const MASTER = { name: '김보관', email: 'master@example.com', password: 'Bogwan!2026' };

export interface RunningServer {
  url: string;
  dataDir: string;
  /** The setup token while no account exists. */
  setupToken: () => string;
  /** Creates the first account through the API (for tests that are not about setup). */
  createMaster: () => Promise<void>;
}

async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const srv = net.createServer();
    srv.listen(0, '127.0.0.1', () => {
      const port = (srv.address() as net.AddressInfo).port;
      srv.close(() => resolve(port));
    });
    srv.on('error', reject);
  });
}

async function waitForHealth(url: string, child: ChildProcess, log: () => string): Promise<void> {
  const deadline = Date.now() + 30_000;
  while (Date.now() < deadline) {
    if (child.exitCode !== null) throw new Error(`server exited early:\n${log()}`);
    try {
      const res = await fetch(`${url}/api/health`);
      if (res.ok) return;
    } catch {
      // not up yet
    }
    await new Promise((r) => setTimeout(r, 150));
  }
  throw new Error(`server did not become healthy:\n${log()}`);
}

/** Starts the production server (`apps/server/dist/main.js`) with a fresh data directory. */
async function startServer(extraEnv: Record<string, string> = {}): Promise<RunningServer & { stop: () => Promise<void> }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-e2e-'));
  const port = await freePort();
  let output = '';
  // As `npm run serve` starts it, with its young-generation flag.
  const child = spawn(process.execPath, ['--max-semi-space-size=8', path.join(root, 'apps/server/dist/main.js')], {
    cwd: root,
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', BOGWAN_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...extraEnv },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  child.stdout!.on('data', (d) => (output += d));
  child.stderr!.on('data', (d) => (output += d));
  const url = `http://localhost:${port}`;
  await waitForHealth(url, child, () => output);
  const setupToken = () => fs.readFileSync(path.join(dataDir, 'setup-token'), 'utf8').trim();
  return {
    url,
    dataDir,
    setupToken,
    createMaster: async () => {
      const res = await fetch(`${url}/api/auth/setup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ token: setupToken(), ...MASTER }),
      });
      if (!res.ok) throw new Error(`setup failed: ${res.status} ${await res.text()}`);
    },
    stop: async () => {
      if (child.exitCode === null) {
        child.kill('SIGTERM');
        await new Promise((r) => child.once('exit', r));
      }
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
}

/**
 * A server of this test file's own, started before its first test and stopped after
 * its last; call at the top of a spec file and read it inside tests. `env` adds to (or
 * overrides) the server's environment.
 */
export function useServer(options: { env?: Record<string, string> } = {}): () => RunningServer {
  let server: Awaited<ReturnType<typeof startServer>> | undefined;
  test.beforeAll(async () => {
    server = await startServer(options.env);
  });
  test.afterAll(async () => {
    await server?.stop();
  });
  return () => {
    if (!server) throw new Error('server not started');
    return server;
  };
}

export const test = base;

/** Signs in through the sign-in form. */
export async function signIn(page: Page, server: RunningServer, prefix = ''): Promise<void> {
  await page.goto(`${server.url}${prefix}/auth/login`);
  await page.getByLabel(prefix === '/en' ? 'Email' : '이메일', { exact: true }).fill(MASTER.email);
  await page.getByLabel(prefix === '/en' ? 'Password' : '비밀번호', { exact: true }).fill(MASTER.password);
  await page.locator('button[type=submit]').click();
  await expect(page).not.toHaveURL(/\/auth\/login/);
}

export { expect };

/** A JSON call of the API with a bearer token; a refusal throws with its status and body. */
export async function api(running: RunningServer, token: string, method: string, urlPath: string, body?: unknown): Promise<any> {
  const res = await fetch(`${running.url}${urlPath}`, {
    method,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${token}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  if (!res.ok) throw new Error(`${method} ${urlPath} failed: ${res.status} ${await res.text()}`);
  return res.json();
}

/** A bearer token for `user`, by the password sign-in. */
export async function apiToken(running: RunningServer, user: { email: string; password: string }): Promise<string> {
  const res = await fetch(`${running.url}/api/auth/login`, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify({ email: user.email, password: user.password }),
  });
  if (!res.ok) throw new Error(`login failed: ${res.status}`);
  return ((await res.json()) as { token: string }).token;
}
