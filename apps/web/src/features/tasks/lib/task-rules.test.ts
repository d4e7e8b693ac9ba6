import type { TaskEntry } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { arrivedTasks, effectiveStatus, parseCacheKey, taskActions, tasksOfTab, withoutMirroredUploads } from './task-rules';

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
    expect(tasksOfTab(all, ME, 'upload').map((t) => t.cacheKey)).toEqual([
      `upload_${ME}_0190c`,
      `upload_${ME}_0190b`,
      `upload_${ME}_0190a`,
    ]);
    expect(tasksOfTab(all, ME, 'snapshot')).toHaveLength(1);
    expect(tasksOfTab(all, OTHER, 'snapshot')).toHaveLength(0);
  });

  it('counts progress 100 as completed', () => {
    expect(effectiveStatus(task('sync', ME, '1', { status: 'running', progress: 100 }))).toBe('completed');
    expect(effectiveStatus(task('sync', ME, '1', { status: 'failure', progress: 100 }))).toBe('failure');
  });

  it('offers Cancel only for running non-upload tasks below 100 %', () => {
    expect(taskActions(task('snapshot', ME, '1'))).toEqual({ cancel: true, delete: false, move: false });
    expect(taskActions(task('restore', ME, '1', { status: 'pending', progress: null })).cancel).toBe(true);
    expect(taskActions(task('upload', ME, '1')).cancel).toBe(false);
    expect(taskActions(task('snapshot', ME, '1', { progress: 100 })).cancel).toBe(false);
    expect(taskActions(task('snapshot', ME, '1', { status: 'failure' })).cancel).toBe(false);
  });

  it('offers Delete for finished or failed tasks and Move for completed uploads', () => {
    expect(taskActions(task('snapshot', ME, '1', { status: 'completed', progress: 100 }))).toEqual({
      cancel: false,
      delete: true,
      move: false,
    });
    expect(taskActions(task('restore', ME, '1', { status: 'failure' })).delete).toBe(true);
    expect(taskActions(task('restore', ME, '1', { status: 'canceled' })).delete).toBe(true);
    expect(taskActions(task('upload', ME, '1', { status: 'completed', progress: 100, clientPath: '/A/B' }))).toEqual({
      cancel: false,
      delete: true,
      move: true,
    });
    expect(taskActions(task('upload', ME, '1', { status: 'failure', clientPath: '/A' })).move).toBe(false);
    expect(taskActions(task('upload', ME, '1', { status: 'running', clientPath: '/A' }))).toEqual({
      cancel: false,
      delete: false,
      move: false,
    });
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
