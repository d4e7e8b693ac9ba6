import type { FileEntry, SearchResult } from '@bogwan/contracts';

/** A search match as the file actions take it (open, download). */
export function toEntry(result: SearchResult): FileEntry {
  return {
    _id: result._id,
    name: result.name,
    path: result.path,
    folder: result.folder,
    size: result.size,
    mtime: result.mtime,
    lock: false,
    starred: false,
    owner: null,
    extension: result.extension,
  };
}

/** The folder a match lies in ('/' for a root folder). */
export function folderOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut > 0 ? path.slice(0, cut) : '/';
}
