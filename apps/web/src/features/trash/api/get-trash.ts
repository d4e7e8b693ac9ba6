import { type TrashListResponse, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { trashKeys } from './keys';

/** GET /api/trash?skip&limit: trashed items, newest first (administrators see everyone's). */
export function getTrash(skip: number, limit: number, signal?: AbortSignal): Promise<TrashListResponse> {
  return callApi(apiCalls.trash_list, { query: { skip, limit }, signal });
}

export const trashQueryOptions = (skip: number, limit: number) =>
  queryOptions({ queryKey: trashKeys.page(skip, limit), queryFn: ({ signal }) => getTrash(skip, limit, signal), placeholderData: keepPreviousData });

export function useTrash(skip: number, limit: number) {
  return useQuery(trashQueryOptions(skip, limit));
}
