import type { TFunction } from 'i18next';
import { describe, expect, it } from 'vitest';
import { formatUptime } from './uptime';

const t = ((key: string, options: { n: number }) => `${options.n}${{ system_days: 'd', system_hours: 'h', system_minutes: 'm' }[key]}`) as unknown as TFunction;

describe('uptime', () => {
  it('shows days, hours and minutes, skipping empty parts', () => {
    expect(formatUptime(3 * 86_400 + 4 * 3600 + 5 * 60 + 59, t)).toBe('3d 4h 5m');
    expect(formatUptime(86_400 + 60, t)).toBe('1d 1m');
    expect(formatUptime(7200, t)).toBe('2h');
    expect(formatUptime(30, t)).toBe('0m');
  });
});
