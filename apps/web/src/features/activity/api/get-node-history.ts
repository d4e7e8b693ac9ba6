import { type AuditList, apiCalls } from '@bogwan/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';

const HISTORY_PAGE_SIZE = 50;

/**
 * GET /api/event/node/:nodeId: what happened to one file or folder, newest first (views,
 * downloads, changes). Administrators get everyone's records, others their own.
 */
export function getNodeHistory(nodeId: string, before: string | null, signal?: AbortSignal): Promise<AuditList> {
  return callApi(apiCalls.event_node, { params: { nodeId }, query: { before: before ?? undefined, limit: HISTORY_PAGE_SIZE }, signal });
}

export const nodeHistoryQueryOptions = (nodeId: string) =>
  infiniteQueryOptions({
    queryKey: ['event', 'node', nodeId],
    queryFn: ({ pageParam, signal }) => getNodeHistory(nodeId, pageParam, signal),
    initialPageParam: null as string | null,
    getNextPageParam: (last) => last.next,
  });

export function useNodeHistory(nodeId: string | null) {
  return useInfiniteQuery({ ...nodeHistoryQueryOptions(nodeId ?? ''), enabled: Boolean(nodeId) });
}
