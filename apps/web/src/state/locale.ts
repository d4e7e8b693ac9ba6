import { DEFAULT_LOCALE, LOCALES, LOCALE_COOKIE, LOCALE_COOKIE_DAYS, type Locale } from '@bogwan/contracts';

/** URL prefix of each locale; Korean (the default) has none. */
const PREFIX: Record<Locale, string> = { ko: '', en: '/en' };

export function isLocale(value: unknown): value is Locale {
  return LOCALES.includes(value as Locale);
}

/** The locale a pathname belongs to, from its prefix. */
export function localeFromPath(pathname: string): Locale {
  return pathname === '/en' || pathname.startsWith('/en/') ? 'en' : DEFAULT_LOCALE;
}

/** The pathname without its locale prefix; always starts with '/'. */
export function stripLocale(pathname: string): string {
  if (localeFromPath(pathname) !== 'en') return pathname || '/';
  return pathname.slice(PREFIX.en.length) || '/';
}

/** A locale-free path ('/home') in the given locale ('/en/home'). */
export function withLocale(locale: Locale, path: string): string {
  const clean = path.startsWith('/') ? path : `/${path}`;
  return `${PREFIX[locale]}${clean}`;
}

/** The locale kept in the `i18n_redirected` cookie, if any. */
export function readLocaleCookie(cookie: string = typeof document === 'undefined' ? '' : document.cookie): Locale | null {
  for (const part of cookie.split(';')) {
    const [name, value] = part.trim().split('=');
    if (name === LOCALE_COOKIE) return isLocale(value) ? value : null;
  }
  return null;
}

export function writeLocaleCookie(locale: Locale): void {
  const maxAge = LOCALE_COOKIE_DAYS * 24 * 60 * 60;
  document.cookie = `${LOCALE_COOKIE}=${locale}; max-age=${maxAge}; path=/; SameSite=Lax`;
}

/** Names of the locales, each written in its own language. */
export const LOCALE_NAMES: Record<Locale, string> = { ko: '한국어', en: 'English (beta)' };
