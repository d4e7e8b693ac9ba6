/**
 * The two date forms PROPFIND writes for every member (RFC 4918 15.1 and 15.7), made from
 * the stored ISO 8601 text by slicing: a 10,000-entry listing parsed 20,000 dates into
 * `Date` objects before, the largest single part of its answer's CPU time. Text that is not
 * in the stored form (`2026-11-28T03:47:00.000Z`) goes through `Date` as before.
 */

const WEEKDAYS = ['Thu', 'Fri', 'Sat', 'Sun', 'Mon', 'Tue', 'Wed'] as const;
const MONTHS = ['Jan', 'Feb', 'Mar', 'Apr', 'May', 'Jun', 'Jul', 'Aug', 'Sep', 'Oct', 'Nov', 'Dec'] as const;
const DAY_MS = 86_400_000;

/** Whether `text` is exactly `YYYY-MM-DDTHH:MM:SS.sssZ`, the form `Date#toISOString` writes. */
function isStoredForm(text: string): boolean {
  return (
    text.length === 24 &&
    text.charCodeAt(4) === 45 &&
    text.charCodeAt(7) === 45 &&
    text.charCodeAt(10) === 84 &&
    text.charCodeAt(13) === 58 &&
    text.charCodeAt(16) === 58 &&
    text.charCodeAt(19) === 46 &&
    text.charCodeAt(23) === 90
  );
}

/** `creationdate`: the ISO 8601 form (RFC 3339), as `new Date(text).toISOString()` would write it. */
export function isoDateOf(text: string): string {
  return isStoredForm(text) ? text : new Date(text).toISOString();
}

/** `getlastmodified`: the HTTP date (`Sat, 28 Nov 2026 03:47:00 GMT`), as `Date#toUTCString` would write it. */
export function httpDateOf(text: string): string {
  if (!isStoredForm(text)) return new Date(text).toUTCString();
  const year = Number(text.slice(0, 4));
  const month = Number(text.slice(5, 7));
  const day = Number(text.slice(8, 10));
  const weekday = WEEKDAYS[((Math.floor(Date.UTC(year, month - 1, day) / DAY_MS) % 7) + 7) % 7];
  const monthName = MONTHS[month - 1];
  if (weekday === undefined || monthName === undefined || Number.isNaN(day)) return new Date(text).toUTCString();
  return `${weekday}, ${text.slice(8, 10)} ${monthName} ${text.slice(0, 4)} ${text.slice(11, 19)} GMT`;
}
