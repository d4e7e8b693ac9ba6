import type { Locale } from '@bogwan/contracts';

const tag = (locale: Locale | string) => (locale === 'en' ? 'en-US' : 'ko-KR');

// One formatter per language: building an Intl.DateTimeFormat costs far more than using
// one, and a scrolled file list formats dozens of dates a frame.
const dateTimeFormats = new Map<string, Intl.DateTimeFormat>();

/** A date and time in the page's locale, short form. */
export function formatDateTime(iso: string, locale: Locale | string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  const language = tag(locale);
  let format = dateTimeFormats.get(language);
  if (!format) {
    format = new Intl.DateTimeFormat(language, { dateStyle: 'medium', timeStyle: 'short' });
    dateTimeFormats.set(language, format);
  }
  return format.format(date);
}

/** How long ago, in seconds, minutes, hours or days ('3분 전', '3 minutes ago'). */
export function formatRelative(iso: string, locale: Locale | string, now: number = Date.now()): string {
  const time = new Date(iso).getTime();
  if (Number.isNaN(time)) return '';
  const seconds = Math.max(0, Math.round((now - time) / 1000));
  const format = new Intl.RelativeTimeFormat(tag(locale), { numeric: 'always' });
  if (seconds < 60) return format.format(-seconds, 'second');
  if (seconds < 3600) return format.format(-Math.floor(seconds / 60), 'minute');
  if (seconds < 86_400) return format.format(-Math.floor(seconds / 3600), 'hour');
  return format.format(-Math.floor(seconds / 86_400), 'day');
}
