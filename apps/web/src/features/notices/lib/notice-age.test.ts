import { describe, expect, it } from 'vitest';
import { isNewNotice } from './notice-age';

describe('new notice', () => {
  const now = Date.parse('2026-03-10T12:00:00Z');
  it('marks notices younger than 7 days', () => {
    expect(isNewNotice('2026-03-10T11:00:00Z', now)).toBe(true);
    expect(isNewNotice('2026-03-03T12:00:01Z', now)).toBe(true);
    expect(isNewNotice('2026-03-03T12:00:00Z', now)).toBe(false);
    expect(isNewNotice('not a date', now)).toBe(false);
  });
});
