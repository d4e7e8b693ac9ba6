import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { afterAll, beforeAll, expect, it } from 'vitest';
import type { DatabaseConfig } from '../src/config.js';
import { type Db, migrateToLatest, openDb } from '../src/db/index.js';
import { installationId } from '../src/modules/system/installation.js';
import { describeEachDialect } from './harness.js';
import { createTestDatabase } from './postgres.js';

describeEachDialect('installation id on $dialect', (dialect) => {
  let config: DatabaseConfig;
  let cleanup: () => Promise<void> = async () => undefined;
  const handles: Db[] = [];

  beforeAll(async () => {
    if (dialect === 'postgres') {
      const database = await createTestDatabase();
      config = { dialect: 'postgres', url: database.url };
      cleanup = database.drop;
    } else {
      const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-installation-'));
      config = { dialect: 'sqlite', file: path.join(dir, 'db.sqlite') };
      cleanup = async () => fs.rmSync(dir, { recursive: true, force: true });
    }
    const first = openDb(config);
    handles.push(first);
    await migrateToLatest(first);
  });
  afterAll(async () => {
    await Promise.all(handles.map((db) => db.destroy()));
    await cleanup();
  });

  it('processes starting at the same moment on one database all get one id, and it never changes', async () => {
    // Four "processes" (each its own connection pool or SQLite handle) ask five times each, at once,
    // on a database that has no id yet.
    for (let i = 0; i < 3; i++) handles.push(openDb(config));
    const answers = await Promise.all(handles.flatMap((db) => Array.from({ length: 5 }, () => installationId(db))));
    expect(new Set(answers).size).toBe(1);
    expect(answers[0]).toMatch(/^[0-9a-f-]{36}$/);
    expect(await installationId(openDbOnce())).toBe(answers[0]);
  });

  function openDbOnce(): Db {
    const db = openDb(config);
    handles.push(db);
    return db;
  }
});
