import { type ListResponse, apiCalls } from '@bogwan/contracts';
import { queryOptions } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { filesKeys } from './keys';

/** Entries fetched per call while the user scrolls a folder. */
export const LIST_PAGE_SIZE = 200;

export type ListSort = 'name' | '-name' | 'size' | '-size' | 'mtime' | '-mtime';

/** GET /api/file/list: one page of a folder, `LIST_PAGE_SIZE` entries from `page * LIST_PAGE_SIZE`. */
export function listFiles(path: string, sort: ListSort, page: number, signal?: AbortSignal): Promise<ListResponse> {
  return callApi(apiCalls.file_list, { query: { path, sort, skip: page * LIST_PAGE_SIZE, limit: LIST_PAGE_SIZE }, signal });
}

export function listPageQueryOptions(path: string, sort: ListSort, page: number) {
  return queryOptions({
    queryKey: filesKeys.listPage(path, sort, page),
    queryFn: ({ signal }) => listFiles(path, sort, page, signal),
    staleTime: 10_000,
  });
}
