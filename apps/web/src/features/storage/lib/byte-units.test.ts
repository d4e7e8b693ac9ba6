import { describe, expect, it } from 'vitest';
import { formatRate, fromBytes, toBytes } from './byte-units';

describe('volume limit units', () => {
  it('turns an amount and a unit into bytes in base 1024', () => {
    expect(toBytes('1', 'GB')).toBe(1_073_741_824);
    expect(toBytes('1.5', 'KB')).toBe(1536);
    expect(toBytes('2', 'TB')).toBe(2 * 1_099_511_627_776);
    expect(toBytes('0', 'MB')).toBe(0);
    for (const bad of ['', '-1', 'abc', '1e3', '1,5']) expect(toBytes(bad, 'GB')).toBeNull();
  });

  it('shows a stored limit in the largest whole unit, GB when there is none', () => {
    expect(fromBytes(null)).toEqual({ amount: '', unit: 'GB' });
    expect(fromBytes(5 * 1_073_741_824)).toEqual({ amount: '5', unit: 'GB' });
    expect(fromBytes(1536)).toEqual({ amount: '1536', unit: 'Bytes' });
    expect(fromBytes(3 * 1_048_576)).toEqual({ amount: '3', unit: 'MB' });
  });

  it('formats rates', () => {
    expect(formatRate(0.123456)).toBe('12.35%');
    expect(formatRate(null)).toBe('-');
  });
});
