import type { QueryClient } from '@tanstack/react-query';
import { refetchAfterChange } from '../../../api/refetch';

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
  versions: (path: string) => ['files', 'versions', path] as const,
};

/** Refetches every file query after a change (see `refetchAfterChange`). */
export function refreshFiles(queryClient: QueryClient): Promise<void> {
  return refetchAfterChange(queryClient, filesKeys.all);
}
