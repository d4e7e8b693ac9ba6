import type { TaskEntry, TaskType } from '@bogwan/contracts';

/** The three parts of a cache key `type_ownerId_taskId`; null when it has fewer. */
export function parseCacheKey(cacheKey: string): { type: string; ownerId: string; taskId: string } | null {
  const parts = cacheKey.split('_');
  if (parts.length < 3) return null;
  return { type: parts[0] as string, ownerId: parts.slice(1, -1).join('_'), taskId: parts.at(-1) as string };
}

/** How a task is shown: progress 100 counts as completed whatever the status says. */
export type TaskState = TaskEntry['status'];

export function effectiveStatus(task: TaskEntry): TaskState {
  if (task.progress === 100 && (task.status === 'running' || task.status === 'pending')) return 'completed';
  return task.status;
}

/** Running or waiting: what the indicator spins for and what scrolls into view. */
export function isActive(task: TaskEntry): boolean {
  const status = effectiveStatus(task);
  return status === 'running' || status === 'pending';
}

/**
 * The tasks of one tab: only the user's own (owner id of the cache key equals the user's
 * _id), newest task id first.
 */
export function tasksOfTab(cache: Record<string, TaskEntry>, userId: string, type: TaskType): TaskEntry[] {
  return ownTasks(cache, userId)
    .filter((task) => task.type === type)
    .sort((a, b) => compareDescending(parseCacheKey(a.cacheKey)?.taskId ?? '', parseCacheKey(b.cacheKey)?.taskId ?? ''));
}

/** Every task of the cache that belongs to the user. */
export function ownTasks(cache: Record<string, TaskEntry>, userId: string): TaskEntry[] {
  return Object.values(cache).filter((task) => parseCacheKey(task.cacheKey)?.ownerId === userId);
}

function compareDescending(a: string, b: string): number {
  return a < b ? 1 : a > b ? -1 : 0;
}

export interface TaskActions {
  cancel: boolean;
  delete: boolean;
  move: boolean;
}

/**
 * The buttons a task offers: Cancel for non-upload tasks below 100 % that are still going
 * (and whose type has a cancel call), Delete once finished or failed, Move for completed
 * uploads.
 */
export function taskActions(task: TaskEntry): TaskActions {
  const status = effectiveStatus(task);
  const finished = status === 'completed' || status === 'canceled' || status === 'failure';
  return {
    cancel: CANCELABLE_TYPES.includes(task.type) && !finished && (task.progress ?? 0) < 100,
    delete: finished,
    move: task.type === 'upload' && status === 'completed' && task.clientPath !== '',
  };
}

/** Task types with a cancel call (`POST /api/snapshot/cancel/{id}`, `POST /api/restore/cancel/{id}`, `POST /api/sync/cancel/{taskId}`). */
export const CANCELABLE_TYPES: readonly TaskType[] = ['snapshot', 'restore', 'sync'];

/** Cache keys present in `next` but not in `previous`: tasks that just arrived. */
export function arrivedTasks(previous: Record<string, TaskEntry>, next: Record<string, TaskEntry>): TaskEntry[] {
  return Object.values(next).filter((task) => !(task.cacheKey in previous));
}

/** An upload of this browser's queue that the server is also recording while it runs. */
export interface LocalUpload {
  path: string;
  name: string;
}

/**
 * Server upload tasks minus the running ones this browser's queue already shows with its
 * own controls (same folder and file name), so one file is not listed twice while it goes.
 */
export function withoutMirroredUploads(tasks: TaskEntry[], local: LocalUpload[]): TaskEntry[] {
  if (local.length === 0) return tasks;
  // While it runs the server may not have filled in the folder yet: then the name decides.
  const mirrored = (task: TaskEntry) =>
    local.some((upload) => upload.name === task.name && (task.clientPath === '' || task.clientPath === upload.path));
  return tasks.filter((task) => !(task.type === 'upload' && isActive(task) && mirrored(task)));
}

/** Replaces or adds one entry (a `task` event) in the cache object. */
export function mergeTask(cache: Record<string, TaskEntry>, task: TaskEntry): Record<string, TaskEntry> {
  return { ...cache, [task.cacheKey]: task };
}
