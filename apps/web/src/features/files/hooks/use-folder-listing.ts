import type { FileEntry } from '@bogwan/contracts';
import { useQueries, useQueryClient } from '@tanstack/react-query';
import { useCallback, useMemo, useRef, useState } from 'react';
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
  // The size last answered for this folder: kept while the pages now on screen are still
  // on their way (after a jump far down the list none of them is loaded yet). Without it
  // the count fell to 0, the list emptied, asked for page 0 again, grew back, asked for the
  // far pages again… a render loop.
  const [knownTotal, setKnownTotal] = useState<number | null>(null);
  if (forKey !== key) {
    setForKey(key);
    setPages([0]);
    setKnownTotal(null);
  }

  const results = useQueries({ queries: pages.map((page) => listPageQueryOptions(path, sort, page)) });
  const first = results[0];
  const answered = results.find((result) => result.data)?.data?.total;
  if (answered !== undefined && answered !== knownTotal && forKey === key) setKnownTotal(answered);
  const total = answered ?? knownTotal ?? 0;

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

  // The pages on screen and one on either side, so rows scrolled into view usually find
  // their page fetched already instead of showing placeholders first.
  const lastPage = useRef(0);
  lastPage.current = Math.max(0, Math.ceil(total / LIST_PAGE_SIZE) - 1);
  const showRange = useCallback((start: number, end: number) => {
    const from = Math.max(0, Math.floor(Math.max(0, start) / LIST_PAGE_SIZE) - 1);
    const to = Math.min(lastPage.current, Math.floor(Math.max(0, end) / LIST_PAGE_SIZE) + 1);
    const wanted: number[] = [];
    for (let page = from; page <= to; page += 1) wanted.push(page);
    // Past the end (the folder shrank under the screen): its last page tells the new size.
    if (wanted.length === 0) wanted.push(lastPage.current);
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
      loading: answered === undefined && knownTotal === null && results.some((result) => result.isPending),
      error: first?.error ?? null,
      itemAt,
      showRange,
      loaded,
    }),
    [total, answered, knownTotal, results, first?.error, itemAt, showRange, loaded],
  );
}
