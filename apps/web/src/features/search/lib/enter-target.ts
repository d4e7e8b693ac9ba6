import { SEARCH_MIN_LENGTH, type SearchResult } from '@bogwan/contracts';

/** What the search box shows when Enter is pressed. */
export interface EnterState<S> {
  /** The text in the box now (trimmed). */
  term: string;
  /** Navigation entries matching `term`, computed on every keystroke (always current). */
  services: S[];
  /** File and folder matches shown in the preview; they may still answer an earlier keyword. */
  results: SearchResult[];
  /** The keyword `results` answer, or null while they are a previous keyword's (kept on screen) or none. */
  resultsFor: string | null;
  /** The call for `term` failed. */
  failed: boolean;
}

export type EnterTarget<S> =
  | { kind: 'service'; service: S }
  | { kind: 'result'; result: SearchResult }
  /** The results page (no match, or the matches could not be loaded). */
  | { kind: 'all' }
  /** Too short for a keyword search and no navigation entry: nothing to open. */
  | { kind: 'none' }
  /** The matches of `term` are not in yet: decide again when they are. */
  | { kind: 'wait' };

/**
 * What Enter opens: the first match in the order the preview shows them (a service, a
 * folder, a file), or the results page when there is none. File and folder matches count
 * only once they answer the keyword in the box: the ones of an earlier keyword, kept on
 * screen while the next call runs, would open a file the user is no longer looking for.
 */
export function enterTarget<S>(state: EnterState<S>): EnterTarget<S> {
  const [service] = state.services;
  if (service !== undefined) return { kind: 'service', service };
  if ([...state.term].length < SEARCH_MIN_LENGTH) return { kind: 'none' };
  if (state.resultsFor !== state.term) return state.failed ? { kind: 'all' } : { kind: 'wait' };
  const first = state.results.find((r) => r.folder) ?? state.results.find((r) => !r.folder);
  return first ? { kind: 'result', result: first } : { kind: 'all' };
}
