import { auditListSchema, type AuditList } from '@bogwan/contracts';
import { infiniteQueryOptions, useInfiniteQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';

const HISTORY_PAGE_SIZE = 50;

/**
 * GET /api/event/node/:nodeId: what happened to one file or folder, newest first (views,
 * downloads, changes). Administrators get everyone's records, others their own.
 */
export function getNodeHistory(nodeId: string, before: string | null, signal?: AbortSignal): Promise<AuditList> {
  return apiFetch(`/event/node/${encodeURIComponent(nodeId)}`, {
    query: { before: before ?? undefined, limit: HISTORY_PAGE_SIZE },
    schema: auditListSchema,
    signal,
  });
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
