import type { TaskEntry } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import {
  arrivedTasks,
  effectiveStatus,
  isQuietTask,
  isStorageSync,
  parseCacheKey,
  tabForArrivals,
  taskActions,
  tasksOfTab,
  withoutMirroredUploads,
} from './task-rules';

const ME = '0190a1b2-0000-7000-8000-000000000001';
const OTHER = '0190a1b2-0000-7000-8000-000000000002';

function task(type: TaskEntry['type'], owner: string, id: string, patch: Partial<TaskEntry> = {}): TaskEntry {
  return {
    cacheKey: `${type}_${owner}_${id}`,
    type,
    name: `${type}-${id}`,
    status: 'running',
    progress: 10,
    size: 0,
    updatedAt: '2026-01-01T00:00:00.000Z',
    extension: '',
    clientPath: '',
    snapshotId: null,
    restoreId: null,
    ...patch,
  };
}

const cache = (...tasks: TaskEntry[]) => Object.fromEntries(tasks.map((t) => [t.cacheKey, t]));
const USER = { admin: false };
const ADMIN = { admin: true };
/** What the storage sync service and the search indexer start (apps/server storage-sync, search.indexer). */
const storageSync = task('sync', ME, '5', { name: 'Team → cloud', clientPath: '/Team' });
const indexing = task('sync', ME, '6', { name: 'report.hwp +2', extension: 'hwp' });

describe('task panel rules', () => {
  it('splits the cache key into type, owner and task id', () => {
    expect(parseCacheKey(`snapshot_${ME}_0190ff`)).toEqual({ type: 'snapshot', ownerId: ME, taskId: '0190ff' });
    expect(parseCacheKey('broken')).toBeNull();
  });

  it("shows only the user's own tasks of the tab, newest task id first", () => {
    const all = cache(
      task('upload', ME, '0190a'),
      task('upload', OTHER, '0190z'),
      task('upload', ME, '0190c'),
      task('snapshot', ME, '0190d'),
      task('upload', ME, '0190b'),
    );
    expect(tasksOfTab(all, ME, 'upload').map((t) => t.cacheKey)).toEqual([`upload_${ME}_0190c`, `upload_${ME}_0190b`, `upload_${ME}_0190a`]);
    expect(tasksOfTab(all, ME, 'snapshot')).toHaveLength(1);
    expect(tasksOfTab(all, OTHER, 'snapshot')).toHaveLength(0);
  });

  it('counts progress 100 as completed', () => {
    expect(effectiveStatus(task('sync', ME, '1', { status: 'running', progress: 100 }))).toBe('completed');
    expect(effectiveStatus(task('sync', ME, '1', { status: 'failure', progress: 100 }))).toBe('failure');
  });

  it('offers Cancel only for running snapshots and restores below 100 %, and storage syncs to administrators', () => {
    expect(taskActions(task('snapshot', ME, '1'), USER)).toEqual({ cancel: true, delete: false, move: false });
    expect(taskActions(task('restore', ME, '1', { status: 'pending', progress: null }), USER).cancel).toBe(true);
    expect(taskActions(task('upload', ME, '1'), ADMIN).cancel).toBe(false);
    expect(taskActions(task('snapshot', ME, '1', { progress: 100 }), USER).cancel).toBe(false);
    expect(taskActions(task('snapshot', ME, '1', { status: 'failure' }), USER).cancel).toBe(false);
    // A storage sync names the root folder it moves; only administrators may cancel it.
    expect(taskActions(storageSync, ADMIN).cancel).toBe(true);
    expect(taskActions(storageSync, USER).cancel).toBe(false);
    expect(taskActions({ ...storageSync, progress: 100 }, ADMIN).cancel).toBe(false);
    // Search indexing after an upload has no cancel call, for anyone.
    expect(taskActions(indexing, USER)).toEqual({ cancel: false, delete: false, move: false });
    expect(taskActions(indexing, ADMIN).cancel).toBe(false);
    expect(taskActions({ ...indexing, status: 'completed', progress: 100 }, USER)).toEqual({ cancel: false, delete: true, move: false });
  });

  it('tells a storage sync from search indexing by its folder', () => {
    expect(isStorageSync(storageSync)).toBe(true);
    expect(isQuietTask(storageSync)).toBe(false);
    expect(isStorageSync(indexing)).toBe(false);
    expect(isQuietTask(indexing)).toBe(true);
    expect(isQuietTask(task('upload', ME, '1'))).toBe(false);
    expect(isStorageSync(task('upload', ME, '1', { clientPath: '/A' }))).toBe(false);
  });

  it('offers Delete for finished or failed tasks and Move for completed uploads', () => {
    expect(taskActions(task('snapshot', ME, '1', { status: 'completed', progress: 100 }), USER)).toEqual({
      cancel: false,
      delete: true,
      move: false,
    });
    expect(taskActions(task('restore', ME, '1', { status: 'failure' }), USER).delete).toBe(true);
    expect(taskActions(task('restore', ME, '1', { status: 'canceled' }), USER).delete).toBe(true);
    expect(taskActions(task('upload', ME, '1', { status: 'completed', progress: 100, clientPath: '/A/B' }), USER)).toEqual({
      cancel: false,
      delete: true,
      move: true,
    });
    expect(taskActions(task('upload', ME, '1', { status: 'failure', clientPath: '/A' }), USER).move).toBe(false);
    expect(taskActions(task('upload', ME, '1', { status: 'running', clientPath: '/A' }), USER)).toEqual({
      cancel: false,
      delete: false,
      move: false,
    });
  });

  it('opens the panel on the newest arrival, but an indexing task never takes it off the upload tab', () => {
    const upload = task('upload', ME, '0190a', { name: 'report.hwp' });
    const indexingAfter = { ...indexing, cacheKey: `sync_${ME}_0190b` };
    // The upload and its indexing arrive together: the upload's tab, though indexing is newer.
    expect(tabForArrivals([upload, indexingAfter])).toBe('upload');
    // Indexing alone: the tab the user is on stays (no switch, no opening).
    expect(tabForArrivals([indexingAfter])).toBeNull();
    expect(tabForArrivals([])).toBeNull();
    // A storage sync does ask for attention, and the newest arrival wins.
    expect(tabForArrivals([upload, { ...storageSync, cacheKey: `sync_${ME}_0190c` }])).toBe('sync');
    expect(tabForArrivals([task('snapshot', ME, '0190d'), upload, indexingAfter])).toBe('snapshot');
  });

  it('finds the tasks that just arrived', () => {
    const before = cache(task('upload', ME, '1'));
    const after = cache(task('upload', ME, '1', { progress: 50 }), task('sync', ME, '2'));
    expect(arrivedTasks(before, after).map((t) => t.type)).toEqual(['sync']);
  });

  it("hides a running server upload that this browser's queue already shows", () => {
    const running = task('upload', ME, '1', { name: 'a.bin', clientPath: '/A' });
    const done = task('upload', ME, '2', { name: 'a.bin', clientPath: '/A', status: 'completed', progress: 100 });
    const elsewhere = task('upload', ME, '3', { name: 'a.bin', clientPath: '/B' });
    const local = [{ path: '/A', name: 'a.bin' }];
    expect(withoutMirroredUploads([running, done, elsewhere], local)).toEqual([done, elsewhere]);
    expect(withoutMirroredUploads([running], [])).toEqual([running]);
  });
});
