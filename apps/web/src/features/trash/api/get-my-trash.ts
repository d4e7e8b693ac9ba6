import { type TrashListResponse, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { trashKeys } from './keys';

/** GET /api/trash/mine?skip&limit: what the caller trashed, newest first (every role). */
export function getMyTrash(skip: number, limit: number, signal?: AbortSignal): Promise<TrashListResponse> {
  return callApi(apiCalls.trash_list_mine, { query: { skip, limit }, signal });
}

export const myTrashQueryOptions = (skip: number, limit: number) =>
  queryOptions({ queryKey: trashKeys.mine(skip, limit), queryFn: ({ signal }) => getMyTrash(skip, limit, signal), placeholderData: keepPreviousData });

export function useMyTrash(skip: number, limit: number) {
  return useQuery(myTrashQueryOptions(skip, limit));
}
