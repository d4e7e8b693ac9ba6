import type { Locale } from '@bogwan/contracts';
import { useCallback } from 'react';
import { useLocation, useNavigate } from 'react-router';
import { localeFromPath, stripLocale, withLocale, writeLocaleCookie } from '../state/locale';

/** The locale of the current page, from its URL prefix. */
export function useLocale(): Locale {
  return localeFromPath(useLocation().pathname);
}

/** Turns a locale-free path ('/home') into one of the current locale ('/en/home'). */
export function useLocalePath(): (path: string) => string {
  const locale = useLocale();
  return useCallback((path: string) => withLocale(locale, path), [locale]);
}

/** Goes to the same page in another locale and remembers the choice in the locale cookie. */
export function useSwitchLocale(): (target: Locale) => void {
  const location = useLocation();
  const navigate = useNavigate();
  return useCallback(
    (target: Locale) => {
      writeLocaleCookie(target);
      const path = withLocale(target, stripLocale(location.pathname));
      void navigate(`${path}${location.search}${location.hash}`, { replace: true });
    },
    [location, navigate],
  );
}
