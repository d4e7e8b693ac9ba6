import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { localDayEnd, localDayStart } from './local-day';

describe('local day bounds of the search date filter', () => {
  const zone = process.env.TZ;
  beforeAll(() => {
    process.env.TZ = 'Asia/Seoul';
  });
  afterAll(() => {
    if (zone === undefined) delete process.env.TZ;
    else process.env.TZ = zone;
  });

  it('turns a Seoul day into the instants it starts and ends at, not the UTC day', () => {
    expect(localDayStart('2026-03-06')).toBe('2026-03-05T15:00:00.000Z');
    expect(localDayEnd('2026-03-06')).toBe('2026-03-06T14:59:59.999Z');
    // A file changed at 01:30 in Seoul lies inside that Seoul day.
    const changed = '2026-03-05T16:30:00.000Z';
    expect(localDayStart('2026-03-06') <= changed && changed <= localDayEnd('2026-03-06')).toBe(true);
  });

  it('covers the whole day across month and year ends', () => {
    expect(localDayEnd('2026-12-31')).toBe('2026-12-31T14:59:59.999Z');
    expect(localDayStart('2027-01-01')).toBe('2026-12-31T15:00:00.000Z');
  });

  it('follows a daylight-saving change (a 23-hour day)', () => {
    process.env.TZ = 'Europe/Berlin';
    try {
      expect(localDayStart('2026-03-29')).toBe('2026-03-28T23:00:00.000Z');
      expect(localDayEnd('2026-03-29')).toBe('2026-03-29T21:59:59.999Z');
    } finally {
      process.env.TZ = 'Asia/Seoul';
    }
  });

  it('passes anything that is not a bare day on unchanged', () => {
    expect(localDayStart('2026-03-06T00:00:00+09:00')).toBe('2026-03-06T00:00:00+09:00');
    expect(localDayEnd('yesterday')).toBe('yesterday');
  });
});
