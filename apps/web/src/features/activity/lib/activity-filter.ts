import type { Activity } from '@bogwan/contracts';

export interface ActivityFilter {
  /** Service name, or '' for all. */
  service: string;
  /** Local dates 'YYYY-MM-DD' (inclusive), or '' for open ends. */
  from: string;
  to: string;
}

function localDayStart(date: string): number | null {
  const [y, m, d] = date.split('-').map(Number);
  if (!y || !m || !d) return null;
  return new Date(y, m - 1, d).getTime();
}

/** The events of the loaded window that pass the filter (dates in the browser's time zone). */
export function filterActivities(items: Activity[], filter: ActivityFilter): Activity[] {
  const from = filter.from ? localDayStart(filter.from) : null;
  const toStart = filter.to ? localDayStart(filter.to) : null;
  const to = toStart === null ? null : toStart + 86_400_000;
  return items.filter((item) => {
    if (filter.service && item.service !== filter.service) return false;
    const time = new Date(item.createdAt).getTime();
    if (from !== null && time < from) return false;
    if (to !== null && time >= to) return false;
    return true;
  });
}

/** Distinct values, sorted, for a filter's choices. */
export function distinct(values: Array<string | null>): string[] {
  return [...new Set(values.filter((value): value is string => Boolean(value)))].sort();
}
