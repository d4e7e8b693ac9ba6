import { DEFAULT_LOCALE, LOCALES } from './enums.js';

/**
 * The web app's pages, as its router declares them under each locale root (`/` for
 * Korean, `/en` for English; the index page is the root itself). `:name` is one path
 * segment, `:name?` an optional one, a trailing `*` any rest. The server answers the app
 * with 200 on these paths and with 404 (still the app, which draws its 404 page) on any
 * other; a web test keeps this list and the router's routes the same.
 */
export const APP_PAGE_PATHS = [
  'auth/login',
  'share/:key?',
  'home',
  'recent',
  'search',
  'shared',
  'starred',
  'requests',
  'my-trash',
  'storage/*',
  'user/:email',
  'guide',
  'manual',
  'dashboard',
  'snapshot',
  'restore',
  'event',
  'log',
  'trash',
] as const;

function matches(pattern: string, segments: string[]): boolean {
  const parts = pattern.split('/');
  for (const [i, part] of parts.entries()) {
    if (part === '*') return true;
    const segment = segments[i];
    if (part.endsWith('?')) return segments.length <= i + 1 && (segment === undefined || segment !== '');
    if (segment === undefined || segment === '') return false;
    if (!part.startsWith(':') && part !== decodeSegment(segment)) return false;
  }
  return segments.length === parts.length;
}

function decodeSegment(segment: string): string {
  try {
    return decodeURIComponent(segment);
  } catch {
    return segment;
  }
}

/** Whether a request path (no query) is one of the app's pages, in any locale. */
export function isAppPagePath(pathname: string): boolean {
  let rest = pathname.replace(/\/+$/, '');
  for (const locale of LOCALES) {
    if (locale === DEFAULT_LOCALE) continue;
    if (rest === `/${locale}`) rest = '';
    else if (rest.startsWith(`/${locale}/`)) rest = rest.slice(locale.length + 1);
  }
  if (rest === '') return true;
  const segments = rest.slice(1).split('/');
  return APP_PAGE_PATHS.some((pattern) => matches(pattern, segments));
}
