import { trashListResponseSchema, type TrashListResponse } from '@bogwan/contracts';
import { keepPreviousData, queryOptions, useQuery } from '@tanstack/react-query';
import { apiFetch } from '../../../api/client';
import { trashKeys } from './keys';

/** GET /api/trash?skip&limit: trashed items, newest first (administrators see everyone's). */
export function getTrash(skip: number, limit: number, signal?: AbortSignal): Promise<TrashListResponse> {
  return apiFetch('/trash', { query: { skip, limit }, schema: trashListResponseSchema, signal });
}

export const trashQueryOptions = (skip: number, limit: number) =>
  queryOptions({ queryKey: trashKeys.page(skip, limit), queryFn: ({ signal }) => getTrash(skip, limit, signal), placeholderData: keepPreviousData });

export function useTrash(skip: number, limit: number) {
  return useQuery(trashQueryOptions(skip, limit));
}
