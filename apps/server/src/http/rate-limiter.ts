/**
 * A fixed-window counter per key, kept in this process: at most `limit` hits per key in
 * each window of `windowMs`. For calls that must not be hammered (password checks,
 * public webhook URLs); behind several processes each one counts on its own.
 */
export class RateLimiter {
  private readonly windows = new Map<string, { start: number; hits: number }>();

  constructor(
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit; false when the key is over its limit in the current window. */
  hit(key: string): boolean {
    const now = this.now();
    let window = this.windows.get(key);
    if (!window || now - window.start >= this.windowMs) {
      window = { start: now, hits: 0 };
      this.windows.set(key, window);
      this.sweep(now);
    }
    window.hits += 1;
    return window.hits <= this.limit;
  }

  /** True when the key may not hit again in the current window (without counting). */
  blocked(key: string): boolean {
    const window = this.windows.get(key);
    return window !== undefined && this.now() - window.start < this.windowMs && window.hits >= this.limit;
  }

  /**
   * Takes back one hit of the current window: an attempt counted before its outcome was
   * known (so parallel attempts cannot all pass) that turned out not to count.
   */
  giveBack(key: string): void {
    const window = this.windows.get(key);
    if (window && this.now() - window.start < this.windowMs && window.hits > 0) window.hits -= 1;
  }

  /** Forgets a key (after a success that should clear earlier failures). */
  reset(key: string): void {
    this.windows.delete(key);
  }

  private sweep(now: number): void {
    if (this.windows.size < 10_000) return;
    for (const [key, window] of this.windows) if (now - window.start >= this.windowMs) this.windows.delete(key);
  }
}
