import type { Locale } from '@bogwan/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { localeFromPath } from '../state/locale';
import en from './en.json';
import ko from './ko.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof ko };
  }
}

void i18n.use(initReactI18next).init({
  resources: { ko: { translation: ko }, en: { translation: en } },
  lng: typeof window === 'undefined' ? 'ko' : localeFromPath(window.location.pathname),
  fallbackLng: 'ko',
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Switches the interface language and the document's `lang`. */
export function applyLocale(locale: Locale): void {
  if (i18n.language !== locale) void i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

export default i18n;
