import { useSyncExternalStore } from 'react';
import type { UploadTask } from '../engine/types';
import { uploadQueue } from '../upload-service';

/** The upload queue's tasks, re-rendering on every change. */
export function useUploadTasks(): UploadTask[] {
  const queue = uploadQueue();
  return useSyncExternalStore(queue.subscribe, queue.getSnapshot, queue.getSnapshot);
}
