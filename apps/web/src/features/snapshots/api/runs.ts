import { type RootFolder, type SnapshotItem, type SnapshotRun, type MessageResponse, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useMutation, useQuery, useQueryClient } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { RUNNING_REFRESH_MS, snapshotKeys } from './keys';

export interface RunQuery {
  planId?: string;
  /** Only completed runs: what a restore can use. */
  completed?: boolean;
  skip: number;
  limit: number;
}

/** GET /api/snapshot/run: runs, newest first, with the total. */
export function getRuns(query: RunQuery, signal?: AbortSignal): Promise<{ items: SnapshotRun[]; total: number }> {
  return callApi(apiCalls.snapshot_run_list, {
    query: { planId: query.planId, completed: query.completed ? 'true' : undefined, skip: query.skip, limit: query.limit },
    signal,
  });
}

export function useRuns(query: RunQuery) {
  return useQuery(
    queryOptions({
      queryKey: snapshotKeys.runs(query),
      queryFn: ({ signal }) => getRuns(query, signal),
      placeholderData: keepPreviousData,
      refetchInterval: (q) => (q.state.data?.items.some((r) => r.status === 'running') ? RUNNING_REFRESH_MS : false),
    }),
  );
}

/** GET /api/snapshot/run/{id}/items?path=: what a snapshot holds directly inside a folder. */
export function getItems(runId: string, path: string, signal?: AbortSignal): Promise<SnapshotItem[]> {
  return callApi(apiCalls.snapshot_items, { params: { id: runId }, query: { path }, signal }).then((r) => r.items);
}

export function useItems(runId: string | null, path: string) {
  return useQuery({
    queryKey: snapshotKeys.items(runId ?? '', path),
    queryFn: ({ signal }) => getItems(runId!, path, signal),
    enabled: runId !== null,
    staleTime: Infinity,
  });
}

/** GET /api/file/root: the root folders a plan can back up. */
export function getRoots(signal?: AbortSignal): Promise<RootFolder[]> {
  return callApi(apiCalls.root_list, { signal });
}

export function useRoots() {
  return useQuery({ queryKey: snapshotKeys.roots(), queryFn: ({ signal }) => getRoots(signal) });
}

/** POST /api/snapshot/cancel/{runId}: stops a running snapshot. */
export function cancelRun(runId: string): Promise<MessageResponse> {
  return callApi(apiCalls.snapshot_cancel, { params: { id: runId } });
}

export function useCancelRun() {
  const client = useQueryClient();
  return useMutation({ mutationFn: cancelRun, onSettled: () => client.invalidateQueries({ queryKey: snapshotKeys.all }) });
}
