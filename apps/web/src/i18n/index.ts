import type { Locale } from '@bogwan/contracts';
import i18n from 'i18next';
import { initReactI18next } from 'react-i18next';
import { localeFromPath } from '../state/locale';
import type ko from './ko.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof ko };
  }
}

// Each catalogue is its own chunk: a visitor downloads only the language they read.
const catalogues: Record<Locale, () => Promise<{ default: Record<string, string> }>> = {
  ko: () => import('./ko.json'),
  en: () => import('./en.json'),
};

void i18n.use(initReactI18next).init({
  resources: {},
  lng: typeof window === 'undefined' ? 'ko' : localeFromPath(window.location.pathname),
  fallbackLng: false,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Loads a language's catalogue once. */
export async function loadCatalogue(locale: Locale): Promise<void> {
  if (i18n.hasResourceBundle(locale, 'translation')) return;
  i18n.addResourceBundle(locale, 'translation', (await catalogues[locale]()).default);
}

/** Switches the interface language (loading its catalogue first) and the document's `lang`. */
export async function applyLocale(locale: Locale): Promise<void> {
  await loadCatalogue(locale);
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

export default i18n;
