import en from '../apps/web/src/i18n/en.json' with { type: 'json' };
import ko from '../apps/web/src/i18n/ko.json' with { type: 'json' };

type Catalogue = Record<string, string>;

/** The text a user sees for a key, in Korean or English, straight from the app's catalogues. */
export function text(locale: 'ko' | 'en', key: string): string {
  const value = (locale === 'ko' ? (ko as Catalogue) : (en as Catalogue))[key];
  if (value === undefined) throw new Error(`no ${locale} text for ${key}`);
  return value;
}

/** A counted text as i18next writes it: the plural form the language picks, the count with its digits grouped. */
export function counted(locale: 'ko' | 'en', key: string, count: number): string {
  const tag = locale === 'en' ? 'en-US' : 'ko-KR';
  const form = new Intl.PluralRules(tag).select(count) === 'one' ? 'one' : 'other';
  return text(locale, `${key}_${form}`).replaceAll('{{count, number}}', new Intl.NumberFormat(tag).format(count));
}
