import { type Restore, type RestoreCreate, type MessageResponse, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { RUNNING_REFRESH_MS, snapshotKeys } from './keys';

/** GET /api/restore: restores, newest first. */
export function getRestores(query: { skip: number; limit: number }, signal?: AbortSignal): Promise<{ items: Restore[]; total: number }> {
  return callApi(apiCalls.restore_list, { query, signal });
}

export function useRestores(query: { skip: number; limit: number }) {
  return useQuery({
    queryKey: snapshotKeys.restores(query),
    queryFn: ({ signal }) => getRestores(query, signal),
    placeholderData: keepPreviousData,
    refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'running') ? RUNNING_REFRESH_MS : false),
  });
}

/** POST /api/restore: restore chosen items (409 while another operation runs). */
export function startRestore(body: RestoreCreate): Promise<Restore> {
  return callApi(apiCalls.restore_start, { body });
}

/** POST /api/restore/{id}/retry: run a stopped or failed restore again. */
export function retryRestore(id: string): Promise<Restore> {
  return callApi(apiCalls.restore_retry, { params: { id } });
}

/** POST /api/restore/cancel/{id}: stops a running restore. */
export function stopRestore(id: string): Promise<MessageResponse> {
  return callApi(apiCalls.restore_cancel, { params: { id } });
}

function useRestoreMutation<I, O>(mutationFn: (input: I) => Promise<O>) {
  const client = useQueryClient();
  return useMutation({ mutationFn, onSettled: () => client.invalidateQueries({ queryKey: snapshotKeys.restoresAll }) });
}

export const useStartRestore = () => useRestoreMutation(startRestore);
export const useRetryRestore = () => useRestoreMutation(retryRestore);
export const useStopRestore = () => useRestoreMutation(stopRestore);
