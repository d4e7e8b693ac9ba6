import type { DashboardTransferDay } from '@bogwan/contracts';
import type { TransferHour } from './dashboard.repo.js';

const DAY_MS = 86_400_000;

/** The time zone to count days in: the given IANA name when this runtime knows it, else UTC. */
export function knownTimeZone(tz: string | undefined): string {
  if (!tz) return 'UTC';
  try {
    return new Intl.DateTimeFormat('en-US', { timeZone: tz }).resolvedOptions().timeZone;
  } catch {
    return 'UTC';
  }
}

/** A function giving an instant's calendar day (YYYY-MM-DD) in `timeZone`. */
export function dayIn(timeZone: string): (at: Date) => string {
  const format = new Intl.DateTimeFormat('en-CA', { timeZone, year: 'numeric', month: '2-digit', day: '2-digit' });
  return (at) => {
    const parts = Object.fromEntries(format.formatToParts(at).map((p) => [p.type, p.value]));
    return `${parts.year}-${parts.month}-${parts.day}`;
  };
}

/**
 * The last `days` calendar days in `timeZone` (oldest first, today last), each with the
 * uploads, downloads and previews of the UTC hours that start on it. Days without any are zero.
 */
export function transferDays(hours: TransferHour[], now: Date, days: number, timeZone: string): DashboardTransferDay[] {
  const day = dayIn(timeZone);
  const series = new Map<string, DashboardTransferDay>();
  // Stepping back whole days from now could skip or repeat a date across a DST change;
  // stepping 12 hours and keeping distinct dates cannot.
  for (let at = now.getTime(); series.size < days; at -= DAY_MS / 2) {
    const date = day(new Date(at));
    if (!series.has(date)) series.set(date, { date, uploads: 0, downloads: 0, previews: 0 });
  }
  for (const { hour, kind, n } of hours) {
    const start = Date.parse(`${hour}:00:00.000Z`);
    if (Number.isNaN(start)) continue;
    const entry = series.get(day(new Date(start)));
    if (!entry) continue;
    if (kind === 'upload') entry.uploads += n;
    else if (kind === 'download') entry.downloads += n;
    else entry.previews += n;
  }
  return [...series.values()].reverse();
}
