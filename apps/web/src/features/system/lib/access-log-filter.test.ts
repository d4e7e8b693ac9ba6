import { describe, expect, it } from 'vitest';
import { EMPTY_ACCESS_LOG_FORM, isValidStatus, toAccessLogFilter } from './access-log-filter';

describe('access log filter', () => {
  it('leaves empty fields out', () => {
    expect(toAccessLogFilter(EMPTY_ACCESS_LOG_FORM)).toEqual({});
    expect(toAccessLogFilter({ ...EMPTY_ACCESS_LOG_FORM, ip: '  ', url: ' ' })).toEqual({});
  });

  it('trims text and keeps a valid status only', () => {
    expect(toAccessLogFilter({ ...EMPTY_ACCESS_LOG_FORM, ip: ' 10.0. ', method: 'POST', url: ' /api ', status: '4XX' })).toEqual({
      ip: '10.0.',
      method: 'POST',
      url: '/api',
      status: '4xx',
    });
    expect(toAccessLogFilter({ ...EMPTY_ACCESS_LOG_FORM, status: '600' })).toEqual({});
    expect(isValidStatus('404')).toBe(true);
    expect(isValidStatus('2xx')).toBe(true);
    expect(isValidStatus('')).toBe(true);
    expect(isValidStatus('4')).toBe(false);
    expect(isValidStatus('abc')).toBe(false);
  });

  it('turns dates into the bounds of local days, the last day included', () => {
    const filter = toAccessLogFilter({ ...EMPTY_ACCESS_LOG_FORM, from: '2026-03-01', to: '2026-03-02' });
    expect(filter.from).toBe(new Date(2026, 2, 1).toISOString());
    expect(filter.to).toBe(new Date(2026, 2, 3).toISOString());
    expect(toAccessLogFilter({ ...EMPTY_ACCESS_LOG_FORM, from: 'yesterday' })).toEqual({});
  });
});
