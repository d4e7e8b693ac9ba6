import { trashListResponseSchema, type TrashListResponse } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { trashKeys } from './keys';

/** GET /api/trash/mine?skip&limit: what the caller trashed, newest first (every role). */
export function getMyTrash(skip: number, limit: number, signal?: AbortSignal): Promise<TrashListResponse> {
  return apiFetch('/trash/mine', { query: { skip, limit }, schema: trashListResponseSchema, signal });
}

export const myTrashQueryOptions = (skip: number, limit: number) =>
  queryOptions({ queryKey: trashKeys.mine(skip, limit), queryFn: ({ signal }) => getMyTrash(skip, limit, signal), placeholderData: keepPreviousData });

export function useMyTrash(skip: number, limit: number) {
  return useQuery(myTrashQueryOptions(skip, limit));
}
