import { localDayBounds } from '@bogwan/contracts';

/**
 * The start of the date filter as an ISO instant (UTC, as modification times are stored).
 * An instant is taken as it is; a bare day starts at midnight in the server's time zone
 * (browsers send instants: the bounds of the day in the user's own time zone).
 */
export function dayStart(from: string): string {
  return localDayBounds(from)?.start ?? new Date(from).toISOString();
}

/** The end of the date filter: an instant as it is; a bare day up to its last millisecond in the server's time zone. */
export function dayEnd(to: string): string {
  return localDayBounds(to)?.end ?? new Date(to).toISOString();
}
