import { type TreeNode, apiCalls } from '@bogwan/contracts';
import { queryOptions, useQuery } from '@tanstack/react-query';
import { callApi } from '../../../api/client';
import { filesKeys } from './keys';

/** GET /api/file/tree?path=: the root folders, opened (children filled) along `path`. */
export function getTree(path: string, signal?: AbortSignal): Promise<TreeNode[]> {
  return callApi(apiCalls.file_tree, { query: path === '/' ? {} : { path }, signal });
}

/** The node at `path` inside a tree answer. */
function findNode(nodes: TreeNode[], path: string): TreeNode | undefined {
  for (const node of nodes) {
    if (node.path === path) return node;
    if (path.startsWith(`${node.path}/`)) return findNode(node.children, path);
  }
  return undefined;
}

/** The folders directly under `path` ('/' for the root folders), read from the tree opened along it. */
export async function getChildFolders(path: string, signal?: AbortSignal): Promise<TreeNode[]> {
  const roots = await getTree(path, signal);
  if (path === '/') return roots;
  return findNode(roots, path)?.children ?? [];
}

export function treeQueryOptions(path: string) {
  return queryOptions({
    queryKey: filesKeys.tree(path),
    queryFn: ({ signal }) => getChildFolders(path, signal),
    staleTime: 30_000,
  });
}

export function useTree(path: string, enabled = true) {
  return useQuery({ ...treeQueryOptions(path), enabled });
}
