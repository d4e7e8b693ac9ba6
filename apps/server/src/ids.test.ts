import { describe, expect, it } from 'vitest';
import { newId } from './ids.js';

describe('newId', () => {
  it('makes RFC 9562 version-7 UUIDs that sort by time', () => {
    const a = newId(1_700_000_000_000);
    const b = newId(1_700_000_000_001);
    expect(a).toMatch(/^[0-9a-f]{8}-[0-9a-f]{4}-7[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}$/);
    expect(a < b).toBe(true);
    expect(new Set(Array.from({ length: 1000 }, () => newId())).size).toBe(1000);
  });

  it('never repeats the random part, also across refills of its pool (ids of one millisecond)', () => {
    const ids = Array.from({ length: 2000 }, () => newId(1_700_000_000_000));
    const randomParts = new Set(ids.map((id) => id.slice(14)));
    expect(randomParts.size).toBe(2000);
    // The random bits are spread: every hex digit shows up in the last group.
    expect(new Set(ids.map((id) => id.at(-1))).size).toBe(16);
  });
});
