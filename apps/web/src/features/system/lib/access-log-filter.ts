import type { AccessLogFilter } from '@bogwan/contracts';

/** What the filter form holds: plain text fields, dates as YYYY-MM-DD in the viewer's calendar. */
export interface AccessLogForm {
  ip: string;
  method: string;
  url: string;
  status: string;
  from: string;
  to: string;
}

export const EMPTY_ACCESS_LOG_FORM: AccessLogForm = { ip: '', method: '', url: '', status: '', from: '', to: '' };

const STATUS = /^[1-5](\d\d|xx)$/i;

/** Local midnight of a YYYY-MM-DD date, as an ISO instant; `nextDay` gives the midnight after it. */
function localMidnight(date: string, nextDay = false): string | undefined {
  const match = /^(\d{4})-(\d{2})-(\d{2})$/.exec(date);
  if (!match) return undefined;
  const day = new Date(Number(match[1]), Number(match[2]) - 1, Number(match[3]) + (nextDay ? 1 : 0));
  return Number.isNaN(day.getTime()) ? undefined : day.toISOString();
}

/** Whether the status field holds something the server accepts (empty counts as valid). */
export function isValidStatus(status: string): boolean {
  return status.trim() === '' || STATUS.test(status.trim());
}

/**
 * The server's filter from the form: empty fields left out, dates as the local day's
 * bounds (the `to` day included), an invalid status left out.
 */
export function toAccessLogFilter(form: AccessLogForm): AccessLogFilter {
  const filter: AccessLogFilter = {};
  if (form.ip.trim()) filter.ip = form.ip.trim();
  if (form.method) filter.method = form.method as AccessLogFilter['method'];
  if (form.url.trim()) filter.url = form.url.trim();
  if (form.status.trim() && isValidStatus(form.status)) filter.status = form.status.trim().toLowerCase();
  const from = form.from ? localMidnight(form.from) : undefined;
  const to = form.to ? localMidnight(form.to, true) : undefined;
  if (from) filter.from = from;
  if (to) filter.to = to;
  return filter;
}
