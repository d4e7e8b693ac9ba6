/** Query keys of the files domain; every mutation invalidates `filesKeys.all`. */
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
