import type { Backend, FileEntry, RootFolder, TreeNode, UsageBreakdown } from '@bogwan/contracts';
import { joinPath } from '@bogwan/contracts';
import type { NodeRow } from './ports.js';

/** The extension of a file name, lower case, without the dot ('' for folders and names without one). */
export function extensionOf(node: Pick<NodeRow, 'name' | 'folder'>): string {
  const dot = node.name.lastIndexOf('.');
  return node.folder === 1 || dot <= 0 ? '' : node.name.slice(dot + 1).toLowerCase();
}

/** A node as lists show it, at its absolute `path`. */
export function toFileEntry(node: NodeRow, path: string, starred: boolean): FileEntry {
  return {
    _id: node.id,
    name: node.name,
    path,
    folder: node.folder === 1,
    size: node.folder === 1 ? 0 : node.size,
    mtime: node.mtime,
    lock: node.lock === 1,
    starred,
    owner: node.owner_id,
    extension: extensionOf(node),
  };
}

/** A root folder with its backend, limit and usage. */
export function toRootFolder(node: NodeRow): RootFolder {
  return {
    _id: node.id,
    inode: node.id,
    name: node.name,
    path: joinPath('/', node.name),
    description: node.description,
    owner: node.owner_id,
    backend: node.backend as Backend,
    volume: node.volume_limit,
    usage: node.usage_bytes,
  };
}

/** What a root's usage is made of: live files, versions and trash (the live part is the rest). */
export function usageBreakdownOf(root: Pick<NodeRow, 'usage_bytes' | 'version_bytes' | 'trash_bytes'>): UsageBreakdown {
  const versions = Number(root.version_bytes);
  const trash = Number(root.trash_bytes);
  return { live: Math.max(0, Number(root.usage_bytes) - versions - trash), versions, trash };
}

/** A folder of the navigation tree. */
export function toTreeNode(node: NodeRow, path: string, children: TreeNode[], expanded: boolean): TreeNode {
  return { _id: node.id, name: node.name, path, folder: true, lock: node.lock === 1, expanded, children };
}

/** Folders the admin screens hide: the spec hides root folders whose name contains `_deleted_`. */
export function isHiddenRoot(node: Pick<NodeRow, 'name'>): boolean {
  return node.name.includes('_deleted_');
}
