import { AUDIT_ACTIONS, AUDIT_OUTCOMES, localDayBounds, type AuditAction, type AuditOutcome } from '@bogwan/contracts';

/** What the filter bar holds; every field is also a parameter of the page's URL. */
export interface AuditViewFilter {
  /** Account id of the person, or ''. */
  actor: string;
  /** How the person was shown when chosen (name · e-mail); only for display, never sent. */
  actorLabel: string;
  /** A path prefix ('/A/B'), or ''. */
  path: string;
  actions: AuditAction[];
  /** '' for both. */
  outcome: AuditOutcome | '';
  /** Local days 'YYYY-MM-DD', inclusive; '' for an open end. */
  from: string;
  to: string;
}

export const EMPTY_FILTER: AuditViewFilter = { actor: '', actorLabel: '', path: '', actions: [], outcome: '', from: '', to: '' };

const ACTION_SET = new Set<string>(AUDIT_ACTIONS);
const DAY = /^\d{4}-\d{2}-\d{2}$/;

/** The filter a page URL's query names; anything malformed there is ignored, not sent. */
export function filterFromParams(params: URLSearchParams): AuditViewFilter {
  const actions = (params.get('action') ?? '')
    .split(',')
    .map((action) => action.trim())
    .filter((action): action is AuditAction => ACTION_SET.has(action));
  const outcome = params.get('outcome') ?? '';
  const day = (name: string) => {
    const value = params.get(name) ?? '';
    return DAY.test(value) && localDayBounds(value) ? value : '';
  };
  const actor = params.get('actor') ?? '';
  return {
    actor,
    actorLabel: actor ? (params.get('who') ?? '') : '',
    path: params.get('path') ?? '',
    actions: [...new Set(actions)],
    outcome: (AUDIT_OUTCOMES as readonly string[]).includes(outcome) ? (outcome as AuditOutcome) : '',
    from: day('from'),
    to: day('to'),
  };
}

/**
 * The URL query of a filter, merged into the page's other parameters (kept as they are).
 * Empty fields leave the URL, so an unfiltered view has a clean address.
 */
export function filterToParams(filter: AuditViewFilter, base: URLSearchParams = new URLSearchParams()): URLSearchParams {
  const next = new URLSearchParams(base);
  const values: Record<string, string> = {
    actor: filter.actor,
    who: filter.actor ? filter.actorLabel : '',
    path: filter.path.trim(),
    action: filter.actions.join(','),
    outcome: filter.outcome,
    from: filter.from,
    to: filter.to,
  };
  for (const [name, value] of Object.entries(values)) {
    if (value) next.set(name, value);
    else next.delete(name);
  }
  return next;
}

/** Whether any filter is set. */
export function isFiltered(filter: AuditViewFilter): boolean {
  return Boolean(filter.actor || filter.path.trim() || filter.actions.length || filter.outcome || filter.from || filter.to);
}

/** The query parameters the server takes for a filter (`/api/event`, `/api/event/export`). */
export interface AuditFilterQuery {
  actor?: string;
  path?: string;
  action?: string;
  outcome?: AuditOutcome;
  from?: string;
  to?: string;
}

/** A path as the server matches it: leading slash, no trailing one. */
export function normalisePathPrefix(path: string): string {
  const trimmed = path.trim().replace(/\/+$/, '');
  if (!trimmed) return '';
  return trimmed.startsWith('/') ? trimmed : `/${trimmed}`;
}

/**
 * The server query of a filter. Days are the reader's own (browser time zone): `from` is
 * the first instant of its day, `to` the first instant after its day (the server's `to` is
 * exclusive), so a one-day range covers that whole day.
 */
export function filterToQuery(filter: AuditViewFilter): AuditFilterQuery {
  const query: AuditFilterQuery = {};
  if (filter.actor) query.actor = filter.actor;
  const path = normalisePathPrefix(filter.path);
  if (path) query.path = path;
  if (filter.actions.length) query.action = filter.actions.join(',');
  if (filter.outcome) query.outcome = filter.outcome;
  const from = filter.from ? localDayBounds(filter.from) : undefined;
  if (from) query.from = from.start;
  const to = filter.to ? localDayBounds(filter.to) : undefined;
  if (to) query.to = new Date(new Date(to.end).getTime() + 1).toISOString();
  return query;
}
