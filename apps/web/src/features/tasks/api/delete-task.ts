import { type TaskEntry, apiCalls } from '@bogwan/contracts';
import { useMutation, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { taskCacheKey } from './keys';

/** DELETE /api/cache/{cacheKey}: removes a finished, canceled or failed task (409 otherwise). */
export function deleteTask(cacheKey: string): Promise<void> {
  return callApi(apiCalls.task_delete, { params: { cacheKey } });
}

export function useDeleteTask(userId: string) {
  const client = useQueryClient();
  return useMutation({
    mutationFn: deleteTask,
    onSuccess: (_answer, cacheKey) => {
      client.setQueryData<Record<string, TaskEntry>>(taskCacheKey(userId), (cache) => {
        if (!cache) return cache;
        const { [cacheKey]: _removed, ...rest } = cache;
        return rest;
      });
    },
  });
}
