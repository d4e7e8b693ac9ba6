import { splitPath } from '@bogwan/contracts';

/** The folder holding `path` ('/' for a root folder). */
export function parentOf(path: string): string {
  const cut = path.lastIndexOf('/');
  return cut <= 0 ? '/' : path.slice(0, cut);
}

/** The last segment of a path ('' for '/'). */
export function baseName(path: string): string {
  return path.slice(path.lastIndexOf('/') + 1);
}

/** The storage path of the URL part below /storage ('' or 'A/B'), or null when it breaks the path rules. */
export function storagePathFromSplat(splat: string): string | null {
  const parts = splat.split('/').filter(Boolean);
  const decoded: string[] = [];
  for (const part of parts) {
    try {
      decoded.push(decodeURIComponent(part));
    } catch {
      decoded.push(part);
    }
  }
  const path = `/${decoded.join('/')}`;
  return splitPath(path) === null ? null : path;
}

/** The locale-free browser link of a storage folder: '/storage/A%20B/C'. */
export function storageHref(path: string): string {
  const segments = splitPath(path) ?? [];
  return segments.length === 0 ? '/storage' : `/storage/${segments.map(encodeURIComponent).join('/')}`;
}

/** Every ancestor of a path, top first, the path itself included ('/A/B' → ['/A', '/A/B']). */
export function ancestorsOf(path: string): string[] {
  const segments = splitPath(path) ?? [];
  return segments.map((_, index) => `/${segments.slice(0, index + 1).join('/')}`);
}

/** True when `path` is `folder` or lies under it (segment-wise). */
export function isWithin(path: string, folder: string): boolean {
  return folder === '/' || path === folder || path.startsWith(`${folder}/`);
}
