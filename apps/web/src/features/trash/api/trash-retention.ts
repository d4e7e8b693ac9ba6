import { type TrashRetention, apiCalls } from '@bogwan/contracts';
import { queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { trashKeys } from './keys';

/** GET /api/trash/retention: days trashed items are kept (null: until deleted by hand). */
export function getTrashRetention(signal?: AbortSignal): Promise<TrashRetention> {
  return callApi(apiCalls.trash_retention, { signal });
}

/** PUT /api/trash/retention `{days}`. */
export function setTrashRetention(retention: TrashRetention): Promise<TrashRetention> {
  return callApi(apiCalls.trash_retention_update, { body: retention });
}

export const trashRetentionQueryOptions = () => queryOptions({ queryKey: trashKeys.retention, queryFn: ({ signal }) => getTrashRetention(signal) });

export function useTrashRetention() {
  return useQuery(trashRetentionQueryOptions());
}

export function useSetTrashRetention() {
  const queryClient = useQueryClient();
  return useMutation({
    mutationFn: setTrashRetention,
    onSuccess: (saved) => queryClient.setQueryData(trashKeys.retention, saved),
  });
}
