import { onTestFinished } from 'vitest';
import { type Db, migrateToLatest } from '../src/db/index.js';
import { type Dialect, openTestDb } from './harness.js';

/** A fresh database of the dialect, migrated to the latest version; closed and deleted when the test ends. */
export async function migratedTestDb(dialect: Dialect): Promise<Db> {
  const { db, close } = await openTestDb(dialect);
  onTestFinished(close);
  await migrateToLatest(db);
  return db;
}

/** A row of the nodes table in root `r`, for tests that write the table directly (as a migration finds it). */
export function nodeRow(id: string, parentId: string, name: string, options: { folder?: 0 | 1; size?: number; trashKey?: string } = {}) {
  const now = new Date().toISOString();
  return {
    id,
    parent_id: parentId,
    root_id: 'r',
    name,
    folder: options.folder ?? 0,
    size: options.size ?? 0,
    mtime: now,
    backend: 'server',
    description: '',
    lock: 0,
    usage_bytes: 0,
    trash_key: options.trashKey ?? '',
    created_at: now,
    updated_at: now,
  };
}
