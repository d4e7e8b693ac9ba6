import { withLocale } from '../../../state/locale';
import type { Locale } from '@bogwan/contracts';

/** The address to hand out for a link: this site, the visitor's language, /share/{key}. */
export function shareAddress(key: string, locale: Locale, origin = window.location.origin): string {
  return `${origin}${withLocale(locale, `/share/${key}`)}`;
}

/** The end of the chosen day (YYYY-MM-DD) in local time, as ISO; null for no date. */
export function endOfDay(date: string): string | null {
  if (!/^\d{4}-\d{2}-\d{2}$/.test(date)) return null;
  const [y, m, d] = date.split('-').map(Number) as [number, number, number];
  return new Date(y, m - 1, d, 23, 59, 59).toISOString();
}

/** The local YYYY-MM-DD of an ISO time (for a date field). */
export function dayOf(iso: string | null): string {
  if (!iso) return '';
  const at = new Date(iso);
  const pad = (n: number) => String(n).padStart(2, '0');
  return `${at.getFullYear()}-${pad(at.getMonth() + 1)}-${pad(at.getDate())}`;
}
