import en from '../apps/web/src/i18n/en.json' with { type: 'json' };
import ko from '../apps/web/src/i18n/ko.json' with { type: 'json' };

type Catalogue = Record<string, string>;

/** The text a user sees for a key, in Korean or English, straight from the app's catalogues. */
export function text(locale: 'ko' | 'en', key: string): string {
  const value = (locale === 'ko' ? (ko as Catalogue) : (en as Catalogue))[key];
  if (value === undefined) throw new Error(`no ${locale} text for ${key}`);
  return value;
}
