// What the files benchmarks share: the built server started on a data directory of its
// own, calls to its API, and rows inserted straight into its SQLite file.
import { spawn } from 'node:child_process';
import { createHash, randomUUID } from 'node:crypto';
import fs from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { fileURLToPath } from 'node:url';

export const repo = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../..');

export const freePort = () =>
  new Promise((resolve) => {
    const s = net.createServer().listen(0, '127.0.0.1', () => {
      const { port } = s.address();
      s.close(() => resolve(port));
    });
  });

export const percentile = (values, p) => {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))];
};
export const median = (values) => percentile(values, 50);

/**
 * Starts `apps/server/dist/main.js` on a free port with `dataDir`, waits until it answers;
 * with the young-generation flag `npm run serve` gives it (docs/decisions/platform.md);
 * `env` adds to its environment, `nodeArgs` go before the script, `script` is the bundle to run
 * (the one built in this checkout by default).
 */
export async function startServer(dataDir, { env = {}, nodeArgs = [], script = path.join(repo, 'apps/server/dist/main.js') } = {}) {
  const port = await freePort();
  const child = spawn(process.execPath, ['--max-semi-space-size=8', ...nodeArgs, script], {
    env: { ...process.env, PORT: String(port), HOST: '127.0.0.1', BOGWAN_DATA_DIR: dataDir, LOG_LEVEL: 'warn', ...env },
    stdio: ['ignore', 'ignore', 'inherit'],
  });
  const url = `http://127.0.0.1:${port}`;
  for (let i = 0; i < 300; i++) {
    try {
      if ((await fetch(`${url}/api/health`)).ok) break;
    } catch {
      // starting
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return { child, url, dataDir };
}

/** One JSON call; throws on an error answer. */
export async function api(url, method, urlPath, token, body) {
  const res = await fetch(url + urlPath, {
    method,
    headers: { ...(token ? { authorization: `Bearer ${token}` } : {}), ...(body ? { 'content-type': 'application/json' } : {}) },
    body: body ? JSON.stringify(body) : undefined,
  });
  const text = await res.text();
  if (!res.ok) throw new Error(`${method} ${urlPath}: ${res.status} ${text}`);
  return text ? JSON.parse(text) : undefined;
}

/** Inserts `count` file rows (`file-000000.txt`, …) into a folder, straight into the SQLite file. */
export async function insertEntries(dataDir, folderId, rootId, ownerId, count) {
  const { default: Database } = await import(path.join(repo, 'node_modules/better-sqlite3/lib/index.js'));
  const db = new Database(path.join(dataDir, 'bogwan.sqlite'));
  db.pragma('busy_timeout = 10000');
  const now = new Date().toISOString();
  const insert = db.prepare(`insert into nodes (id, parent_id, root_id, name, folder, size, mtime, content_hash, blob_key, backend, owner_id,
    description, lock, volume_limit, usage_bytes, trash_key, trashed_at, trashed_by, original_parent_id, created_at, updated_at)
    values (?, ?, ?, ?, 0, ?, ?, ?, ?, 'server', ?, '', 0, null, 0, '', null, null, null, ?, ?)`);
  const all = db.transaction(() => {
    for (let i = 0; i < count; i++) {
      const hash = createHash('sha256').update(String(i)).digest('hex');
      insert.run(randomUUID(), folderId, rootId, `file-${String(i).padStart(6, '0')}.txt`, i % 100_000, now, hash, hash, ownerId, now, now);
    }
  });
  all();
  db.close();
}

/** Creates the first account with the setup token the server wrote; answers `{ token, user }`. */
export async function createFirstAccount(server, account) {
  const setupToken = fs.readFileSync(path.join(server.dataDir, 'setup-token'), 'utf8').trim();
  return api(server.url, 'POST', '/api/auth/setup', null, { token: setupToken, ...account });
}
