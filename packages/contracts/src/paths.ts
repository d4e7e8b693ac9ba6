/**
 * Storage paths: absolute, `/` is the top, segments separated by `/`. A path never holds
 * `.` or `..` segments, empty segments, NUL, control characters, bidirectional formatting
 * characters or a backslash. Names and paths are compared in Unicode NFC: every name is
 * stored in NFC and every path is looked up in NFC, so `보고서` typed as syllables (NFC)
 * or as jamo (NFD, as macOS file systems hand it over) is one name.
 */

/** Longest path, in UTF-8 bytes of the whole path (`/root/folder/name`). */
export const PATH_MAX_LENGTH = 4096;
/** Longest name, in UTF-16 code units (what a text field counts). */
export const FILE_NAME_MAX_LENGTH = 255;

/**
 * Bidirectional embeddings, overrides and isolates (U+202A–U+202E, U+2066–U+2069): they
 * reorder what follows them on screen, so `invoice\u202Efdp.exe` shows as `invoiceexe.pdf`.
 * The implicit marks (U+200E, U+200F, U+061C) are allowed: they reorder no run of letters
 * and right-to-left names need them.
 */
const BIDI_CONTROLS = /[\u202a-\u202e\u2066-\u2069]/;
// eslint-disable-next-line no-control-regex -- a name holding a control character is refused on purpose
const CONTROL_OR_SEPARATOR = /[/\\\u0000-\u001f\u007f]/;

/** A name in the one form names are stored and compared in (Unicode NFC). */
export function normalizeName(name: string): string {
  return name.normalize('NFC');
}

/**
 * The one name rule of files and folders (folders add the spec's pattern, `checkFolderName`):
 * 1–255 characters, no leading or trailing spaces, not `.` or `..`, no `/`, `\`, NUL,
 * control characters or bidirectional formatting characters.
 */
export function isValidFileName(name: string): boolean {
  return (
    name.length > 0 &&
    name.length <= FILE_NAME_MAX_LENGTH &&
    name === name.trim() &&
    name !== '.' &&
    name !== '..' &&
    !CONTROL_OR_SEPARATOR.test(name) &&
    !BIDI_CONTROLS.test(name)
  );
}

/** The number of bytes `text` takes in UTF-8 (what the path limit counts). */
export function utf8Length(text: string): number {
  let bytes = 0;
  for (let i = 0; i < text.length; i += 1) {
    const code = text.charCodeAt(i);
    if (code < 0x80) bytes += 1;
    else if (code < 0x800) bytes += 2;
    else if (code >= 0xd800 && code <= 0xdbff && i + 1 < text.length) {
      // A surrogate pair is one code point of four bytes.
      bytes += 4;
      i += 1;
    } else bytes += 3;
  }
  return bytes;
}

/** True when a path of `bytes` UTF-8 bytes fits the path limit. */
export function pathFits(bytes: number): boolean {
  return bytes <= PATH_MAX_LENGTH;
}

/**
 * The segments of a valid path in NFC (`[]` for `/`), or null when the path breaks a rule
 * (including the 4,096-byte limit).
 */
export function splitPath(path: string): string[] | null {
  if (typeof path !== 'string' || !path.startsWith('/')) return null;
  if (path === '/') return [];
  const normal = normalizeName(path);
  if (!pathFits(utf8Length(normal))) return null;
  const segments = normal.replace(/\/$/, '').slice(1).split('/');
  return segments.every(isValidFileName) ? segments : null;
}

/** A valid path in its stored form: NFC, no trailing `/`; null when it breaks a rule. */
export function normalizePath(path: string): string | null {
  const segments = splitPath(path);
  return segments === null ? null : `/${segments.join('/')}`;
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
