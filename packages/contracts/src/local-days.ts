/** A bare day, `YYYY-MM-DD`, as a date input gives it. */
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;

/**
 * The first and last millisecond (ISO, UTC) of a bare day in the time zone of the process
 * that asks (the browser: the user's days; the server: its own), daylight-saving days
 * included; undefined for anything that is not a bare day.
 */
export function localDayBounds(day: string): { start: string; end: string } | undefined {
  const parts = DAY.exec(day);
  if (!parts) return undefined;
  const [year, month, date] = [Number(parts[1]), Number(parts[2]) - 1, Number(parts[3])];
  const start = new Date(year, month, date);
  const next = new Date(year, month, date + 1);
  return { start: start.toISOString(), end: new Date(next.getTime() - 1).toISOString() };
}
