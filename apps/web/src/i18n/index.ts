import type { Locale } from '@bogwan/contracts';
import i18n from 'i18next';
import { use } from 'react';
import { initReactI18next, useTranslation } from 'react-i18next';
import { localeFromPath } from '../state/locale';
import type { CataloguePart } from './catalogue-parts';
import type ko from './ko.json';

declare module 'i18next' {
  interface CustomTypeOptions {
    defaultNS: 'translation';
    resources: { translation: typeof ko };
  }
}

type Messages = () => Promise<{ default: Record<string, string> }>;

// Each catalogue is its own chunk: a visitor downloads only the language they read. Texts
// only some screens read are parts of their own (catalogue-parts.ts), loaded by those screens.
const catalogues: Record<Locale, Messages> = {
  ko: () => import('virtual:catalogue/ko/common'),
  en: () => import('virtual:catalogue/en/common'),
};
const parts: Record<CataloguePart, Record<Locale, Messages>> = {
  policy: { ko: () => import('virtual:catalogue/ko/policy'), en: () => import('virtual:catalogue/en/policy') },
  settings: { ko: () => import('virtual:catalogue/ko/settings'), en: () => import('virtual:catalogue/en/settings') },
  log: { ko: () => import('virtual:catalogue/ko/log'), en: () => import('virtual:catalogue/en/log') },
  snapshot: { ko: () => import('virtual:catalogue/ko/snapshot'), en: () => import('virtual:catalogue/en/snapshot') },
  dashboard: { ko: () => import('virtual:catalogue/ko/dashboard'), en: () => import('virtual:catalogue/en/dashboard') },
  trash: { ko: () => import('virtual:catalogue/ko/trash'), en: () => import('virtual:catalogue/en/trash') },
};

void i18n.use(initReactI18next).init({
  resources: {},
  lng: typeof window === 'undefined' ? 'ko' : localeFromPath(window.location.pathname),
  fallbackLng: false,
  initAsync: false,
  interpolation: { escapeValue: false },
  returnNull: false,
});

/** Pieces already added to i18next (`ko/common`, `en/policy`…), and their loads under way. */
const loads = new Map<string, Promise<void>>();
const added = new Set<string>();
/** Parts some screen has asked for: a change of language loads them in the new language too. */
const wantedParts = new Set<CataloguePart>();

function loadPiece(locale: Locale, name: CataloguePart | 'common'): Promise<void> {
  const id = `${locale}/${name}`;
  let load = loads.get(id);
  if (!load) {
    const messages = name === 'common' ? catalogues[locale] : parts[name][locale];
    load = messages().then(
      (module) => {
        i18n.addResourceBundle(locale, 'translation', module.default, true, true);
        added.add(id);
      },
      (error: unknown) => {
        loads.delete(id);
        throw error;
      },
    );
    loads.set(id, load);
  }
  return load;
}

/** Loads a language's catalogue once: its common part and every part a screen has asked for. */
export async function loadCatalogue(locale: Locale): Promise<void> {
  await Promise.all([loadPiece(locale, 'common'), ...[...wantedParts].map((part) => loadPiece(locale, part))]);
}

/** Loads a part of the current language's catalogue (and of any language switched to later). */
export function loadCataloguePart(part: CataloguePart, locale = i18n.language as Locale): Promise<void> {
  wantedParts.add(part);
  return loadPiece(locale, part);
}

/**
 * Holds the calling screen (suspends it) until the texts of `parts` are there in the current
 * language, so it never shows a key. Needs a Suspense boundary above.
 */
export function useCataloguePart(...parts: CataloguePart[]): void {
  const { i18n: instance } = useTranslation();
  const locale = instance.language as Locale;
  const missing = parts.filter((part) => !added.has(`${locale}/${part}`));
  if (missing.length > 0) use(loadCataloguePieces(missing, locale));
}

/** One promise per set of parts asked for together, so a suspended screen finds the same one again. */
const pieceSets = new Map<string, Promise<void>>();
function loadCataloguePieces(parts: CataloguePart[], locale: Locale): Promise<void> {
  if (parts.length === 1) return loadCataloguePart(parts[0]!, locale);
  const id = `${locale}/${parts.join('+')}`;
  let load = pieceSets.get(id);
  if (!load) {
    load = Promise.all(parts.map((part) => loadCataloguePart(part, locale))).then(
      () => undefined,
      (error: unknown) => {
        pieceSets.delete(id);
        throw error;
      },
    );
    pieceSets.set(id, load);
  }
  return load;
}

/** Switches the interface language (loading its catalogue first) and the document's `lang`. */
export async function applyLocale(locale: Locale): Promise<void> {
  await loadCatalogue(locale);
  if (i18n.language !== locale) await i18n.changeLanguage(locale);
  if (typeof document !== 'undefined') document.documentElement.lang = locale;
}

export default i18n;
