import { describe, expect, it } from 'vitest';
import { formatBytes } from './format-bytes';

describe('formatBytes', () => {
  it('writes nothing as 0 B in every language', () => {
    expect(formatBytes(0, 'ko')).toBe('0 B');
    expect(formatBytes(0, 'en')).toBe('0 B');
    expect(formatBytes(-5, 'en')).toBe('0 B');
    expect(formatBytes(Number.NaN, 'en')).toBe('0 B');
  });

  it('counts in base 1024', () => {
    expect(formatBytes(1023, 'en')).toBe('1,023 B');
    expect(formatBytes(1024, 'en')).toBe('1 KB');
    expect(formatBytes(1536, 'en')).toBe('1.5 KB');
    expect(formatBytes(25 * 1024 * 1024, 'ko')).toBe('25 MB');
    expect(formatBytes(1_073_741_824, 'en')).toBe('1 GB');
    expect(formatBytes(1_099_511_627_776, 'en')).toBe('1 TB');
  });

  it('keeps one decimal below 100 of a unit and none from 100 up', () => {
    expect(formatBytes(123_456_789, 'en')).toBe('118 MB');
    expect(formatBytes(12_345_678, 'en')).toBe('11.8 MB');
    expect(formatBytes(99.96 * 1024, 'en')).toBe('100 KB');
  });

  it('moves to the next unit instead of writing 1024 of one', () => {
    expect(formatBytes(1024 * 1024 - 10, 'en')).toBe('1 MB');
  });

  it('groups digits the way the reader writes them', () => {
    expect(formatBytes(5000 * 1024 ** 5, 'en')).toBe('5,000 PB');
    expect(formatBytes(5000 * 1024 ** 5, 'ko')).toBe('5,000 PB');
  });
});
