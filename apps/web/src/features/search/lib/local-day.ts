import { localDayBounds } from '@bogwan/contracts';

/**
 * The instant a day of the user's own time zone starts (`YYYY-MM-DD` → ISO, UTC), for the
 * search's `from`; the server would otherwise read a bare day in its own time zone.
 * Anything that is not a bare day is passed on as it is (the server judges it).
 */
export function localDayStart(day: string): string {
  return localDayBounds(day)?.start ?? day;
}

/** The last millisecond of a day of the user's own time zone, for the search's `to`. */
export function localDayEnd(day: string): string {
  return localDayBounds(day)?.end ?? day;
}
