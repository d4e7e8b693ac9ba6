import { describe, expect, it } from 'vitest';
import { httpDateOf, isoDateOf } from './dav-dates.js';

describe('PROPFIND dates from stored text', () => {
  it('write what Date would write, for dates across centuries, leap days and every weekday', () => {
    const samples = [0, 951_782_400_000, 1_709_164_800_000, 1_764_301_620_123, 4_102_444_799_999, -86_400_000 * 400];
    for (let day = 0; day < 800; day += 1) samples.push(Date.UTC(2026, 0, 1) + day * 86_400_000 + day * 7_919_000);
    for (const ms of samples) {
      const stored = new Date(ms).toISOString();
      expect(httpDateOf(stored)).toBe(new Date(ms).toUTCString());
      expect(isoDateOf(stored)).toBe(stored);
    }
  });

  it('fall back to Date for text in another form', () => {
    for (const text of ['2026-11-28 03:47:00+09:00', '2026-11-28T03:47:00Z', '2026-11-28']) {
      expect(httpDateOf(text)).toBe(new Date(text).toUTCString());
      expect(isoDateOf(text)).toBe(new Date(text).toISOString());
    }
  });
});
