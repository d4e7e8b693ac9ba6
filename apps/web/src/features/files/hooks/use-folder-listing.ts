import type { FileEntry } from '@bogwan/contracts';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useState } from 'react';
import { LIST_PAGE_SIZE, listPageQueryOptions, type ListSort } from '../api/list-files';

export interface FolderListing {
  /** Entries in the folder (known after the first page). */
  total: number;
  loading: boolean;
  error: unknown;
  /** The entry at an index, or undefined while its page is not loaded. */
  itemAt: (index: number) => FileEntry | undefined;
  /** Tells the listing which indexes are on screen; their pages are fetched. */
  showRange: (start: number, end: number) => void;
  /** Every loaded entry (for select-all and keyboard actions). */
  loaded: () => FileEntry[];
}

/**
 * A folder listed page by page (`skip`/`limit`) as the user scrolls: only the pages on
 * screen are observed, so a 10,000-entry folder costs a few calls, and a change
 * (invalidation) refetches what is visible.
 */
export function useFolderListing(path: string, sort: ListSort): FolderListing {
  const queryClient = useQueryClient();
  const [pages, setPages] = useState<number[]>([0]);
  const key = `${path}\u0000${sort}`;
  const [forKey, setForKey] = useState(key);
  if (forKey !== key) {
    setForKey(key);
    setPages([0]);
  }

  const results = useQueries({ queries: pages.map((page) => listPageQueryOptions(path, sort, page)) });
  const first = results[0];
  const total = results.find((result) => result.data)?.data?.total ?? 0;

  const itemAt = useCallback(
    (index: number) => {
      const page = Math.floor(index / LIST_PAGE_SIZE);
      const data = queryClient.getQueryData(listPageQueryOptions(path, sort, page).queryKey);
      return data?.items[index - page * LIST_PAGE_SIZE];
    },
    // Results change identity when any page arrives, which re-reads the cache.
    // eslint-disable-next-line react-hooks/exhaustive-deps
    [queryClient, path, sort, results],
  );

  const showRange = useCallback((start: number, end: number) => {
    const from = Math.floor(Math.max(0, start) / LIST_PAGE_SIZE);
    const to = Math.floor(Math.max(0, end) / LIST_PAGE_SIZE);
    const wanted: number[] = [];
    for (let page = from; page <= to; page += 1) wanted.push(page);
    setPages((current) => (current.length === wanted.length && current.every((p, i) => p === wanted[i]) ? current : wanted));
  }, []);

  const loaded = useCallback(() => {
    const out: FileEntry[] = [];
    const pageCount = Math.ceil(total / LIST_PAGE_SIZE);
    for (let page = 0; page < pageCount; page += 1) {
      const data = queryClient.getQueryData(listPageQueryOptions(path, sort, page).queryKey);
      if (data) out.push(...data.items);
    }
    return out;
  }, [queryClient, path, sort, total]);

  return useMemo(
    () => ({
      total,
      loading: results.every((result) => !result.data) && results.some((result) => result.isPending),
      error: first?.error ?? null,
      itemAt,
      showRange,
      loaded,
    }),
    [total, results, first?.error, itemAt, showRange, loaded],
  );
}
