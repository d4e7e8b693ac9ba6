import { type TaskEntry, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery, type QueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { refetchAfterChange } from '../../../api/refetch';
import { mergeTask } from '../lib/task-rules';
import { taskCacheKey } from './keys';

/** GET /api/cache: the caller's tasks keyed by cache key. */
export function getTaskCache(signal?: AbortSignal): Promise<Record<string, TaskEntry>> {
  return callApi(apiCalls.task_cache, { signal });
}

export const taskCacheQueryOptions = (userId: string) =>
  queryOptions({
    queryKey: taskCacheKey(userId),
    queryFn: async ({ signal }) => {
      try {
        return await getTaskCache(signal);
      } catch (error) {
        // A failed load of the task cache is logged only; the panel keeps what it had. A load
        // called off (the page moved on, a newer load replaced it) is no failure.
        if (!signal.aborted) console.error('task cache load failed', error);
        throw error;
      }
    },
    retry: false,
    staleTime: 30_000,
  });

/** The user's task cache, kept current by `task` events. */
export function useTaskCache(userId: string) {
  return useQuery(taskCacheQueryOptions(userId));
}

/** Applies one `task` event to the cached tasks of the user. */
export function applyTaskEvent(client: QueryClient, userId: string, task: TaskEntry): void {
  // Before the first load answered there is nothing to merge into, and that load may have
  // been computed without this task: fetch again.
  if (!client.getQueryData(taskCacheKey(userId))) {
    void refetchAfterChange(client, taskCacheKey(userId));
    return;
  }
  client.setQueryData<Record<string, TaskEntry>>(taskCacheKey(userId), (cache) => (cache ? mergeTask(cache, task) : cache));
}
