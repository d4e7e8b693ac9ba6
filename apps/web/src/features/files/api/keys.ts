import type { QueryClient } from '@tanstack/react-query';

/** Query keys of the files domain; every change refreshes them through `refreshFiles`. */
export const filesKeys = {
  all: ['files'] as const,
  list: (path: string, sort: string) => ['files', 'list', path, sort] as const,
  listPage: (path: string, sort: string, page: number) => ['files', 'list', path, sort, page] as const,
  tree: (path: string) => ['files', 'tree', path] as const,
  usage: ['files', 'usage'] as const,
  permission: (path: string) => ['files', 'permission', path] as const,
  recent: ['files', 'recent'] as const,
  starred: ['files', 'starred'] as const,
};

/**
 * Refetches every file query after a change. Fetches already on the way are cancelled
 * first: a query's first fetch (no data yet) would otherwise absorb the invalidation and
 * keep an answer the server computed before the change, e.g. a folder opened (or the page
 * reloaded) while an upload finishes.
 */
export async function refreshFiles(queryClient: QueryClient): Promise<void> {
  await queryClient.cancelQueries({ queryKey: filesKeys.all });
  await queryClient.invalidateQueries({ queryKey: filesKeys.all });
}
