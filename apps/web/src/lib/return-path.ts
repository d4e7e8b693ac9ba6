import { stripLocale } from '../state/locale';

/** The query parameter of the sign-in page that names where to go after signing in. */
export const RETURN_PARAM = 'next';

/**
 * The place to come back to after signing in, as a path of this site without the locale
 * prefix, or null when `value` is not one: only same-origin paths pass (no scheme, no
 * `//host`, no backslash tricks, not the sign-in page itself), so the parameter cannot
 * send anyone to another site.
 */
export function safeReturnPath(value: string | null | undefined): string | null {
  if (!value || !value.startsWith('/') || value.startsWith('//') || value.includes('\\')) return null;
  // Control characters would let a browser read the path differently than this check does.
  if ([...value].some((char) => char.charCodeAt(0) < 0x20 || char.charCodeAt(0) === 0x7f)) return null;
  let url: URL;
  try {
    url = new URL(value, 'http://bogwan.invalid');
  } catch {
    return null;
  }
  if (url.origin !== 'http://bogwan.invalid') return null;
  const path = stripLocale(url.pathname);
  if (path === '/auth/login') return null;
  return `${path}${url.search}${url.hash}`;
}

/** The sign-in page's address (without locale) that comes back to `returnTo` afterwards. */
export function signInHref(returnTo: string): string {
  const path = safeReturnPath(returnTo);
  return path && path !== '/' ? `/auth/login?${RETURN_PARAM}=${encodeURIComponent(path)}` : '/auth/login';
}
