import { describe, expect, it } from 'vitest';
import { dayOf, endOfDay, shareAddress } from './share-url';

describe('share addresses and dates', () => {
  it('builds the address in the visitor language', () => {
    expect(shareAddress('abc', 'ko', 'https://files.example')).toBe('https://files.example/share/abc');
    expect(shareAddress('abc', 'en', 'https://files.example')).toBe('https://files.example/en/share/abc');
  });

  it('takes the end of the chosen day and reads it back as the same day', () => {
    const iso = endOfDay('2030-05-17');
    expect(iso).not.toBeNull();
    expect(dayOf(iso)).toBe('2030-05-17');
    expect(endOfDay('17/05/2030')).toBeNull();
    expect(dayOf(null)).toBe('');
  });
});
