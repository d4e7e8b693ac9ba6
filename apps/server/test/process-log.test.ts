import { spawn } from 'node:child_process';
import fs from 'node:fs';
import http from 'node:http';
import os from 'node:os';
import path from 'node:path';
import { Writable } from 'node:stream';
import { fileURLToPath } from 'node:url';
import type { FastifyInstance } from 'fastify';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { buildApp } from '../src/app.js';
import { loadConfig } from '../src/config.js';
import { apiCalls } from '@bogwan/contracts';
import { call, requester, setupMaster, type TestServer } from './harness.js';
import { chunkMultipart } from './transfer-helpers.js';

const serverRoot = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '..');

interface LogLine {
  level: number;
  msg: string;
  [field: string]: unknown;
}

/** A server whose process log is kept in memory, one parsed JSON object per line. */
async function startLogged(env: Record<string, string> = {}): Promise<{ server: TestServer; lines: LogLine[]; raw: string[] }> {
  const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-log-'));
  const raw: string[] = [];
  const stream = new Writable({
    write(chunk, _encoding, done) {
      raw.push(...String(chunk).split('\n').filter(Boolean));
      done();
    },
  });
  const config = loadConfig({ BOGWAN_DATA_DIR: dataDir, BOGWAN_WEB_DIR: path.join(dataDir, 'no-web'), ...env });
  const app: FastifyInstance = await buildApp(config, { logger: { level: 'info', stream } });
  await app.listen({ port: 0, host: '127.0.0.1' });
  const url = `http://127.0.0.1:${(app.server.address() as { port: number }).port}`;
  const server: TestServer = {
    url,
    app,
    dataDir,
    config,
    request: requester(url),
    close: async () => {
      app.server.closeAllConnections();
      await app.close();
      fs.rmSync(dataDir, { recursive: true, force: true });
    },
  };
  return {
    server,
    raw,
    lines: new Proxy([], {
      get: (_t, key) =>
        Reflect.get(
          raw.map((l) => JSON.parse(l) as LogLine),
          key,
        ),
    }) as LogLine[],
  };
}

/** Sends the head of a 6 MB chunk and a megabyte of it, then cuts the connection. */
function abortedUpload(url: string, token: string): Promise<void> {
  const { contentType, head } = chunkMultipart({
    path: '/Team',
    fileName: 'cut.bin',
    fileSize: 5_000_000,
    chunkIndex: 0,
    totalChunks: 1,
    bytes: Buffer.alloc(0),
  });
  return new Promise((resolve) => {
    const req = http.request(`${url}/api/file/upload`, {
      method: 'POST',
      headers: { authorization: `Bearer ${token}`, 'content-type': contentType, 'content-length': 6_000_000 },
    });
    req.on('error', () => resolve());
    req.write(head);
    req.write(Buffer.alloc(1_000_000, 1), () => {
      req.destroy();
      resolve();
    });
  });
}

describe('the process log', () => {
  let logged: Awaited<ReturnType<typeof startLogged>>;
  beforeAll(async () => {
    logged = await startLogged();
  });
  afterAll(async () => {
    await logged?.server.close();
  });

  it('logs a cut upload at info, never as an error, and writes no request lines by default', async () => {
    const master = await setupMaster(logged.server);
    await call(logged.server, apiCalls.folder_create, { token: master.token, body: { name: 'Team', path: '/' } });
    await abortedUpload(logged.server.url, master.token);
    for (let attempt = 0; attempt < 100 && !logged.lines.some((l) => l.msg === 'client aborted the request'); attempt++)
      await new Promise((r) => setTimeout(r, 50));
    const aborted = logged.lines.find((l) => l.msg === 'client aborted the request');
    expect(aborted).toMatchObject({ level: 30, policy: 'file_upload', req: { method: 'POST', url: '/api/file/upload' } });
    expect(logged.lines.filter((l) => l.level >= 50)).toEqual([]);
    expect(logged.lines.filter((l) => l.msg === 'request completed')).toEqual([]);
  });
});

describe('request lines (BOGWAN_LOG_REQUESTS)', () => {
  let logged: Awaited<ReturnType<typeof startLogged>>;
  beforeAll(async () => {
    logged = await startLogged({ BOGWAN_LOG_REQUESTS: 'true' });
  });
  afterAll(async () => {
    await logged?.server.close();
  });

  it('writes one JSON line per answered request, by policy, without the query string', async () => {
    // A query the health call does not take (a ticket), to show it is never logged: raw on purpose.
    await logged.server.request('GET', '/api/health?ticket=secret-ticket');
    const line = logged.lines.find((l) => l.msg === 'request completed');
    expect(line).toMatchObject({ level: 30, policy: 'health', req: { method: 'GET', url: '/api/health' }, res: { statusCode: 200 } });
    expect(logged.raw.join('\n')).not.toContain('secret-ticket');
  });
});

describe('the server process', () => {
  it('writes every line as JSON, the first-run setup banner and a refused configuration included', async () => {
    const dataDir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-main-'));
    const run = (env: Record<string, string>, until: (out: string) => boolean) =>
      new Promise<string>((resolve) => {
        const child = spawn(path.join(serverRoot, '../../node_modules/.bin/tsx'), ['src/main.ts'], { cwd: serverRoot, env: { ...process.env, ...env } });
        let out = '';
        const take = (chunk: Buffer) => {
          out += chunk.toString('utf8');
          if (until(out)) child.kill('SIGTERM');
        };
        child.stdout.on('data', take);
        child.stderr.on('data', take);
        child.on('close', () => resolve(out));
      });
    try {
      const started = await run({ PORT: '0', HOST: '127.0.0.1', BOGWAN_DATA_DIR: dataDir, LOG_LEVEL: 'info' }, (out) => out.includes('setupToken'));
      const lines = started
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine);
      const token = fs.readFileSync(path.join(dataDir, 'setup-token'), 'utf8').trim();
      expect(lines.find((l) => l.setupToken)).toMatchObject({ level: 40, setupToken: token, setupTokenFile: path.join(dataDir, 'setup-token') });
      expect(lines.find((l) => l.msg === 'backup engine blob codec')).toMatchObject({ codec: expect.stringMatching(/^(native|javascript)$/) });

      const refused = await run({ PORT: 'not-a-port', BOGWAN_DATA_DIR: dataDir }, () => false);
      const fatal = refused
        .split('\n')
        .filter(Boolean)
        .map((line) => JSON.parse(line) as LogLine);
      expect(fatal).toHaveLength(1);
      expect(fatal[0]).toMatchObject({ level: 60, msg: expect.stringContaining('PORT') });
    } finally {
      fs.rmSync(dataDir, { recursive: true, force: true });
    }
    // Two processes that compile the server from source on start: slow on a busy machine.
  }, 300_000);
});
