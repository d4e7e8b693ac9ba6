import { describe, expect, it } from 'vitest';
import { EMPTY_FILTER, filterFromParams, filterToParams, filterToQuery, isFiltered, normalisePathPrefix, type AuditViewFilter } from './audit-filter';

const full: AuditViewFilter = {
  actor: '01J0000000000000000000ACTOR',
  actorLabel: '이사용 · member@example.com',
  path: "/운영팀/100% 예산_'최종'",
  actions: ['file.download', 'file.upload'],
  outcome: 'refused',
  from: '2026-11-20',
  to: '2026-11-27',
};

describe('audit filter and the page URL', () => {
  it('survives a round trip through the URL, Korean and special characters included', () => {
    const params = filterToParams(full);
    expect(filterFromParams(new URLSearchParams(params.toString()))).toEqual(full);
  });

  it('keeps the page’s other parameters and drops empty fields', () => {
    const params = filterToParams({ ...EMPTY_FILTER, outcome: 'allowed' }, new URLSearchParams('tab=x&actor=old&path=/a'));
    expect(params.toString()).toBe('tab=x&outcome=allowed');
    expect(filterToParams(EMPTY_FILTER).toString()).toBe('');
  });

  it('ignores what a hand-edited URL gets wrong instead of sending it', () => {
    const filter = filterFromParams(new URLSearchParams('action=file.download,nope,file.download&outcome=maybe&from=yesterday&to=2026-02-30x&who=Eve'));
    expect(filter).toEqual({ ...EMPTY_FILTER, actions: ['file.download'] });
  });

  it('says whether anything is filtered', () => {
    expect(isFiltered(EMPTY_FILTER)).toBe(false);
    expect(isFiltered({ ...EMPTY_FILTER, path: '   ' })).toBe(false);
    expect(isFiltered({ ...EMPTY_FILTER, outcome: 'allowed' })).toBe(true);
  });
});

describe('audit filter and the server query', () => {
  it('sends the person, a normalised path, the actions and the outcome', () => {
    const query = filterToQuery({ ...full, from: '', to: '' });
    expect(query).toEqual({ actor: full.actor, path: full.path, action: 'file.download,file.upload', outcome: 'refused' });
    expect(filterToQuery(EMPTY_FILTER)).toEqual({});
  });

  it('turns local days into an instant range whose end is the start of the day after', () => {
    const query = filterToQuery({ ...EMPTY_FILTER, from: '2026-11-20', to: '2026-11-20' });
    expect(query.from).toBe(new Date(2026, 10, 20).toISOString());
    expect(query.to).toBe(new Date(2026, 10, 21).toISOString());
  });

  it('writes a path prefix the way the server stores paths', () => {
    expect(normalisePathPrefix(' 운영팀/보고서/ ')).toBe('/운영팀/보고서');
    expect(normalisePathPrefix('/')).toBe('');
    expect(normalisePathPrefix('')).toBe('');
  });
});
