import { useTranslation } from 'react-i18next';

const UNITS = ['B', 'KB', 'MB', 'GB', 'TB', 'PB'] as const;
const BASE = 1024;

const tag = (locale: string) => (locale === 'en' ? 'en-US' : 'ko-KR');

// One number format per language and precision: a scrolled file list formats dozens of
// sizes a frame, and building an Intl.NumberFormat costs far more than using one.
const numberFormats = new Map<string, Intl.NumberFormat>();
function numberFormat(locale: string, fractionDigits: number): Intl.NumberFormat {
  const key = `${tag(locale)}:${fractionDigits}`;
  let format = numberFormats.get(key);
  if (!format) {
    format = new Intl.NumberFormat(tag(locale), { maximumFractionDigits: fractionDigits });
    numberFormats.set(key, format);
  }
  return format;
}

/** Digits kept after the point: one below 100 of a unit, none from 100 up and for plain bytes. */
const fractionDigitsFor = (value: number, exponent: number) => (exponent === 0 || value >= 100 ? 0 : 1);

/**
 * A size in bytes for people, base 1024 as the spec asks, with the digits of the UI
 * locale: 0 → '0 B', 1536 → '1.5 KB', 123456789 → '118 MB', 1 TiB → '1 TB'.
 */
export function formatBytes(bytes: number, locale: string): string {
  if (!Number.isFinite(bytes) || bytes <= 0) return `0 ${UNITS[0]}`;
  let exponent = Math.min(UNITS.length - 1, Math.floor(Math.log(bytes) / Math.log(BASE)));
  let value = bytes / BASE ** exponent;
  // 1,023.97 KB would round to '1,024 KB': show it as the next unit instead.
  const digits = fractionDigitsFor(value, exponent);
  if (Number(value.toFixed(digits)) >= BASE && exponent < UNITS.length - 1) {
    exponent += 1;
    value = bytes / BASE ** exponent;
  }
  return `${numberFormat(locale, fractionDigitsFor(value, exponent)).format(value)} ${UNITS[exponent]}`;
}

/** `formatBytes` bound to the interface language. */
export function useFormatBytes(): (bytes: number) => string {
  const { i18n } = useTranslation();
  return (bytes: number) => formatBytes(bytes, i18n.language);
}
