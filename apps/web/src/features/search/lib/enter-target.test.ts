import type { SearchResult } from '@bogwan/contracts';
import { describe, expect, it } from 'vitest';
import { enterTarget, type EnterState } from './enter-target';

function match(name: string, folder = false): SearchResult {
  return { _id: name, name, path: `/Team/${name}`, folder, size: 0, mtime: '2026-01-01T00:00:00.000Z', extension: '', match: 'name', snippet: name };
}

const state = (patch: Partial<EnterState<string>>): EnterState<string> => ({
  term: 'budget',
  services: [],
  results: [],
  resultsFor: null,
  failed: false,
  ...patch,
});

describe('what Enter opens in the top-bar search', () => {
  it('never opens a match of the previous keyword while the next one is on its way', () => {
    // "bud" was answered; the user typed on to "budget" and pressed Enter within the delay.
    const stale = state({ term: 'budget', results: [match('buddy.txt')], resultsFor: 'bud' });
    expect(enterTarget(stale)).toEqual({ kind: 'wait' });
    // Kept on screen while the call for "budget" runs: not theirs either.
    expect(enterTarget(state({ results: [match('buddy.txt')], resultsFor: null }))).toEqual({ kind: 'wait' });
  });

  it("opens the first match once the results are the keyword's own: a folder, then a file", () => {
    const results = [match('budget.pdf'), match('Budgets', true)];
    expect(enterTarget(state({ results, resultsFor: 'budget' }))).toEqual({ kind: 'result', result: results[1] });
    expect(enterTarget(state({ results: [match('budget.pdf')], resultsFor: 'budget' }))).toEqual({ kind: 'result', result: match('budget.pdf') });
  });

  it('goes to the results page when the keyword has no match, or its call failed', () => {
    expect(enterTarget(state({ results: [], resultsFor: 'budget' }))).toEqual({ kind: 'all' });
    expect(enterTarget(state({ results: [match('buddy.txt')], resultsFor: 'bud', failed: true }))).toEqual({ kind: 'all' });
  });

  it('opens a navigation entry at once: it always matches the text in the box', () => {
    expect(enterTarget(state({ services: ['/trash', '/storage'], results: [match('old.txt')], resultsFor: 'tr' }))).toEqual({
      kind: 'service',
      service: '/trash',
    });
    expect(enterTarget(state({ term: 't', services: ['/trash'] }))).toEqual({ kind: 'service', service: '/trash' });
  });

  it('does nothing for one character without a navigation entry', () => {
    expect(enterTarget(state({ term: 'x', results: [match('x.txt')], resultsFor: 'x' }))).toEqual({ kind: 'none' });
  });
});
