import { describe, expect, it } from 'vitest';
import { knownTimeZone, transferDays } from './transfer-days.js';

describe('transfer days', () => {
  const now = new Date('2026-03-10T01:30:00Z');

  it('lists the last N calendar days of the zone, oldest first, zero when quiet', () => {
    const days = transferDays([], now, 30, 'UTC');
    expect(days).toHaveLength(30);
    expect(days[0]!.date).toBe('2026-02-09');
    expect(days.at(-1)).toEqual({ date: '2026-03-10', uploads: 0, downloads: 0, previews: 0 });
  });

  it('counts an hour on the day it falls on in the zone', () => {
    const hours = [
      { hour: '2026-03-09T20', kind: 'upload' as const, n: 2 },
      { hour: '2026-03-09T10', kind: 'download' as const, n: 3 },
      { hour: '2026-03-09T11', kind: 'preview' as const, n: 4 },
      { hour: '2025-01-01T00', kind: 'upload' as const, n: 9 },
    ];
    // 20:00 UTC on 9 March is 05:00 on 10 March in Seoul.
    const seoul = transferDays(hours, now, 30, 'Asia/Seoul');
    expect(seoul.at(-1)).toEqual({ date: '2026-03-10', uploads: 2, downloads: 0, previews: 0 });
    expect(seoul.at(-2)).toEqual({ date: '2026-03-09', uploads: 0, downloads: 3, previews: 4 });
    const utc = transferDays(hours, now, 30, 'UTC');
    expect(utc.at(-2)).toEqual({ date: '2026-03-09', uploads: 2, downloads: 3, previews: 4 });
    // Outside the window: not counted anywhere.
    expect(utc.reduce((sum, d) => sum + d.uploads, 0)).toBe(2);
  });

  it('has no gap or repeat across a daylight saving change', () => {
    const days = transferDays([], new Date('2026-03-10T12:00:00Z'), 30, 'America/New_York').map((d) => d.date);
    expect(new Set(days).size).toBe(30);
    expect(days).toContain('2026-03-08');
  });

  it('falls back to UTC for a zone it does not know', () => {
    expect(knownTimeZone('Mars/Olympus')).toBe('UTC');
    expect(knownTimeZone(undefined)).toBe('UTC');
    expect(knownTimeZone('Asia/Seoul')).toBe('Asia/Seoul');
  });
});
