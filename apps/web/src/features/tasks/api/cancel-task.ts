import { type MessageResponse, type TaskEntry, apiCalls } from '@bogwan/contracts';
import { useMutation } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { isStorageSync } from '../lib/task-rules';

/**
 * Cancels a running snapshot (`POST /api/snapshot/cancel/{snapshotId}`), restore
 * (`POST /api/restore/cancel/{restoreId}`) or storage sync (`POST /api/sync/cancel/{taskId}`, administrators);
 * 409 `task_not_cancelable` when it is not running. Search indexing has no cancel call.
 * The task's new state arrives as a `task` event.
 */
export function cancelTask(task: TaskEntry): Promise<MessageResponse> {
  if (task.type === 'snapshot' && task.snapshotId) {
    return callApi(apiCalls.snapshot_cancel, { params: { id: task.snapshotId } });
  }
  if (task.type === 'restore' && task.restoreId) {
    return callApi(apiCalls.restore_cancel, { params: { id: task.restoreId } });
  }
  if (isStorageSync(task)) {
    // A sync is cancelled by its task id, the last part of the cache key.
    const taskId = task.cacheKey.split('_').at(-1) ?? '';
    return callApi(apiCalls.sync_cancel, { params: { id: taskId } });
  }
  return Promise.reject(new Error(`no cancel call for ${task.type}`));
}

export function useCancelTask() {
  return useMutation({ mutationFn: cancelTask });
}
