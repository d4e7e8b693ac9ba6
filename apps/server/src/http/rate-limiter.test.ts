import { describe, expect, it } from 'vitest';
import { RateLimiter } from './rate-limiter.js';

describe('RateLimiter', () => {
  it('allows the limit per window and key, then refuses until the window ends', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 1000, () => now);
    expect([limiter.hit('a'), limiter.hit('a'), limiter.hit('a')]).toEqual([true, true, false]);
    expect(limiter.blocked('a')).toBe(true);
    expect(limiter.hit('b')).toBe(true);
    now = 1000;
    expect(limiter.blocked('a')).toBe(false);
    expect(limiter.hit('a')).toBe(true);
    limiter.reset('a');
    expect(limiter.blocked('a')).toBe(false);
  });

  it('gives back a hit of the current window only', () => {
    let now = 0;
    const limiter = new RateLimiter(2, 1000, () => now);
    limiter.hit('a');
    limiter.hit('a');
    expect(limiter.blocked('a')).toBe(true);
    limiter.giveBack('a');
    expect(limiter.blocked('a')).toBe(false);
    expect(limiter.hit('a')).toBe(true);
    expect(limiter.hit('a')).toBe(false);
    now = 1000;
    limiter.giveBack('a');
    expect(limiter.hit('a')).toBe(true);
    expect(limiter.hit('a')).toBe(true);
    expect(limiter.hit('a')).toBe(false);
  });
});
