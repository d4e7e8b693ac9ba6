/**
 * Storage paths: absolute, `/` is the top, segments separated by `/`. A path never holds
 * `.` or `..` segments, empty segments, NUL, control characters or a backslash.
 */

export const PATH_MAX_LENGTH = 4096;
export const FILE_NAME_MAX_LENGTH = 255;

/** A file name: any character except `/`, `\`, NUL and control characters; not `.` or `..`. */
export function isValidFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= FILE_NAME_MAX_LENGTH &&
    name === name.trim() &&
    name !== '.' &&
    name !== '..' &&
    !/[/\\\u0000-\u001f\u007f]/.test(name)
  );
}

/** The segments of a valid path (`[]` for `/`), or null when the path breaks a rule. */
export function splitPath(path: string): string[] | null {
  if (typeof path !== 'string' || !path.startsWith('/') || path.length > PATH_MAX_LENGTH) return null;
  if (path === '/') return [];
  const segments = path.replace(/\/$/, '').slice(1).split('/');
  return segments.every(isValidFileName) ? segments : null;
}

/** Joins a folder path and a name. */
export function joinPath(folder: string, name: string): string {
  return folder === '/' ? `/${name}` : `${folder}/${name}`;
}

/** True when `path` is `ancestor` itself or lies inside it (segment-wise: `/Team2` is not inside `/Team`). */
export function isInside(path: string, ancestor: string): boolean {
  if (ancestor === '/') return true;
  return path === ancestor || path.startsWith(`${ancestor}/`);
}
