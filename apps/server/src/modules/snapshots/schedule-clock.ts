// When schedules are due, in the server's local time zone (the process's TZ).

/** A schedule as the clock needs it. */
export interface ScheduleTimes {
  days: number[];
  /** HH:mm */
  time: string;
}

const pad = (n: number) => String(n).padStart(2, '0');

/** The local minute a date falls in, as `YYYY-MM-DD HH:mm` (a slot's name). */
export function slotOf(date: Date): string {
  return `${date.getFullYear()}-${pad(date.getMonth() + 1)}-${pad(date.getDate())} ${pad(date.getHours())}:${pad(date.getMinutes())}`;
}

/** Stored form of days: `0,3,5`. */
export function formatDays(days: number[]): string {
  return [...new Set(days)].sort((a, b) => a - b).join(',');
}

export function parseDays(stored: string): number[] {
  return stored
    .split(',')
    .filter((d) => d !== '')
    .map(Number)
    .filter((d) => Number.isInteger(d) && d >= 0 && d <= 6);
}

/**
 * The slots of a schedule due in the last `lookbackMinutes` minutes up to `now`
 * (inclusive), oldest first. A look-back of a couple of minutes survives a late tick
 * (a busy event loop, a clock step) without firing slots from long ago at start-up.
 */
export function dueSlots(schedule: ScheduleTimes, now: Date, lookbackMinutes = 2): string[] {
  const out: string[] = [];
  const minute = new Date(now);
  minute.setSeconds(0, 0);
  for (let back = lookbackMinutes; back >= 0; back--) {
    const at = new Date(minute.getTime() - back * 60_000);
    if (schedule.days.includes(at.getDay()) && `${pad(at.getHours())}:${pad(at.getMinutes())}` === schedule.time) out.push(slotOf(at));
  }
  return out;
}
