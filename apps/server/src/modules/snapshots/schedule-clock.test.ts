import { describe, expect, it } from 'vitest';
import { dueSlots, formatDays, parseDays, slotOf } from './schedule-clock.js';

describe('schedule clock (local time)', () => {
  // 2026-03-04 is a Wednesday (day 3).
  const at = (h: number, m: number, s = 0) => new Date(2026, 2, 4, h, m, s);

  it('names a slot by its local minute', () => {
    expect(slotOf(at(9, 5, 42))).toBe('2026-03-04 09:05');
  });

  it('is due on a listed day at its minute, and a tick a little late still finds it', () => {
    const schedule = { days: [1, 3], time: '09:05' };
    expect(dueSlots(schedule, at(9, 5, 10))).toEqual(['2026-03-04 09:05']);
    expect(dueSlots(schedule, at(9, 6, 59))).toEqual(['2026-03-04 09:05']);
    expect(dueSlots(schedule, at(9, 8, 0))).toEqual([]);
    expect(dueSlots(schedule, at(9, 4, 59))).toEqual([]);
  });

  it('is not due on other days', () => {
    expect(dueSlots({ days: [0, 6], time: '09:05' }, at(9, 5))).toEqual([]);
  });

  it('crosses midnight into the right day', () => {
    // 00:00 Thursday (day 4) looked at from 00:01.
    expect(dueSlots({ days: [4], time: '00:00' }, new Date(2026, 2, 5, 0, 1))).toEqual(['2026-03-05 00:00']);
    expect(dueSlots({ days: [3], time: '23:59' }, new Date(2026, 2, 5, 0, 0, 30))).toEqual(['2026-03-04 23:59']);
  });

  it('stores days sorted and without repeats, and ignores junk when reading', () => {
    expect(formatDays([5, 1, 5, 0])).toBe('0,1,5');
    expect(parseDays('0,1,5')).toEqual([0, 1, 5]);
    expect(parseDays('')).toEqual([]);
    expect(parseDays('1,9,x,2')).toEqual([1, 2]);
  });
});
