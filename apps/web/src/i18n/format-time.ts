import type { Locale } from '@bogwan/contracts';

const tag = (locale: Locale | string) => (locale === 'en' ? 'en-US' : 'ko-KR');

/** A date and time in the page's locale, short form. */
export function formatDateTime(iso: string, locale: Locale | string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) return '';
  return new Intl.DateTimeFormat(tag(locale), { dateStyle: 'medium', timeStyle: 'short' }).format(date);
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
