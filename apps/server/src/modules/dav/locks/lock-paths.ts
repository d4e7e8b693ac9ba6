// Tree-path relations the lock rules need (paths are absolute and NFC, e.g. `/영업부/a.txt`).

/** The first segment of a path: locks can only conflict within one root folder. */
export function rootSegment(path: string): string {
  // Sliced, not split: a 10,000-entry listing asks this once per member.
  if (!path.startsWith('/')) return '';
  const end = path.indexOf('/', 1);
  return end < 0 ? path.slice(1) : path.slice(1, end);
}

/** The folders above a path, nearest last: `/a/b/c` → `/a`, `/a/b`. */
export function ancestorsOf(path: string): string[] {
  const segments = path.split('/').slice(1);
  const ancestors: string[] = [];
  for (let i = 1; i < segments.length; i += 1) ancestors.push(`/${segments.slice(0, i).join('/')}`);
  return ancestors;
}

/** True when `path` lies strictly below `folder`. */
export function isBelow(path: string, folder: string): boolean {
  return path.startsWith(`${folder}/`);
}

/** The parent folder of a path (`/` for a root folder). */
export function parentOf(path: string): string {
  const slash = path.lastIndexOf('/');
  return slash <= 0 ? '/' : path.slice(0, slash);
}
