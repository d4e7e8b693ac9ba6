import { SEARCH_MIN_LENGTH, type SearchQuery, type SearchResult, apiCalls } from '@bogwan/contracts';
import { keepPreviousData, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { localDayEnd, localDayStart } from '../lib/local-day';

export interface KeywordSearch {
  keyword: string;
  limit: number;
  type?: SearchQuery['type'];
  folder?: string;
  /** Days (`YYYY-MM-DD`) of the user's own time zone: sent as the instants the first starts and the last ends. */
  from?: string;
  to?: string;
}

export const searchKeys = {
  all: ['search'] as const,
  keyword: (search: KeywordSearch) => ['search', search] as const,
};

/** GET /api/search/keyword: files and folders the user may read, name matches first. */
export function searchKeyword(search: KeywordSearch, signal?: AbortSignal): Promise<SearchResult[]> {
  const from = search.from ? localDayStart(search.from) : undefined;
  const to = search.to ? localDayEnd(search.to) : undefined;
  return callApi(apiCalls.search_keyword, {
    query: { keyword: search.keyword, limit: search.limit, type: search.type, folder: search.folder, from, to },
    signal,
  });
}

/** Runs only for keywords of at least 2 characters; keeps the previous answer while the next one loads. */
export function useKeywordSearch(search: KeywordSearch) {
  const enabled = [...search.keyword.trim()].length >= SEARCH_MIN_LENGTH;
  return useQuery({
    queryKey: searchKeys.keyword({ ...search, keyword: search.keyword.trim() }),
    queryFn: ({ signal }) => searchKeyword({ ...search, keyword: search.keyword.trim() }, signal),
    enabled,
    placeholderData: keepPreviousData,
    staleTime: 10_000,
  });
}
