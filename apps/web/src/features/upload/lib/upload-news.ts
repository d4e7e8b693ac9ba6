import type { UploadStatus, UploadTask } from '../engine/types';

/** A file that has just finished or failed, to be announced. */
export interface UploadNews {
  name: string;
  outcome: 'done' | 'failed';
  error?: string;
}

/**
 * The files whose status became done or failed since `before` (status by task id);
 * updates `before` to the current statuses. A task first seen already finished (brought
 * back after a reload) is not news.
 */
export function uploadNews(before: Map<string, UploadStatus>, tasks: UploadTask[]): UploadNews[] {
  const news: UploadNews[] = [];
  const seen = new Set<string>();
  for (const task of tasks) {
    seen.add(task.id);
    const previous = before.get(task.id);
    before.set(task.id, task.status);
    if (previous === undefined || previous === task.status) continue;
    if (task.status === 'done') news.push({ name: task.name, outcome: 'done' });
    if (task.status === 'failed') news.push({ name: task.name, outcome: 'failed', error: task.error });
  }
  for (const id of before.keys()) if (!seen.has(id)) before.delete(id);
  return news;
}
