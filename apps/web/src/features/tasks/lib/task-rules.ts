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
 * `sync` tasks are of two kinds. A storage sync (a root folder moved or copied between
 * server and cloud storage, started by an administrator) always names that folder in
 * `clientPath`; the search indexer's text extraction after uploads never sets `clientPath`.
 */
export function isStorageSync(task: TaskEntry): boolean {
  return task.type === 'sync' && task.clientPath !== '';
}

/** Background work shown for information only (search indexing): it never moves the panel to its tab. */
export function isQuietTask(task: TaskEntry): boolean {
  return task.type === 'sync' && !isStorageSync(task);
}

/**
 * The buttons a task offers: Cancel for tasks below 100 % that are still going and have a
 * cancel call the user may make (snapshots and restores; storage syncs for administrators
 * only, since `POST /api/sync/cancel` is theirs; indexing has none), Delete once finished
 * or failed, Move for completed uploads.
 */
export function taskActions(task: TaskEntry, viewer: { admin: boolean }): TaskActions {
  const status = effectiveStatus(task);
  const finished = status === 'completed' || status === 'canceled' || status === 'failure';
  const cancelable = task.type === 'snapshot' || task.type === 'restore' || (isStorageSync(task) && viewer.admin);
  return {
    cancel: cancelable && !finished && (task.progress ?? 0) < 100,
    delete: finished,
    move: task.type === 'upload' && status === 'completed' && task.clientPath !== '',
  };
}

/**
 * The tab the panel opens on for tasks that just arrived: the newest one's (highest task
 * id), quiet tasks left out; null when none of them asks for attention, so the tab the
 * user is on stays.
 */
export function tabForArrivals(arrived: TaskEntry[]): TaskType | null {
  const newest = arrived
    .filter((task) => !isQuietTask(task))
    .sort((a, b) => compareDescending(parseCacheKey(a.cacheKey)?.taskId ?? '', parseCacheKey(b.cacheKey)?.taskId ?? ''))[0];
  return newest?.type ?? null;
}

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
  const mirrored = (task: TaskEntry) => local.some((upload) => upload.name === task.name && (task.clientPath === '' || task.clientPath === upload.path));
  return tasks.filter((task) => !(task.type === 'upload' && isActive(task) && mirrored(task)));
}

/** Replaces or adds one entry (a `task` event) in the cache object. */
export function mergeTask(cache: Record<string, TaskEntry>, task: TaskEntry): Record<string, TaskEntry> {
  return { ...cache, [task.cacheKey]: task };
}
