import type { AttemptCountersRepo, TakenHit } from './attempt-counters.repo.js';

export type { TakenHit } from './attempt-counters.repo.js';

/**
 * A fixed-window limit: at most `limit` hits per key in each window of `windowMs`, counted
 * in the database so that every server process shares one count and parallel requests
 * cannot all pass (each hit is one atomic statement). `scope` keeps the keys of different
 * limits apart in the one counters table.
 */
export class RateLimit {
  constructor(
    private readonly counters: AttemptCountersRepo,
    readonly scope: string,
    readonly limit: number,
    readonly windowMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  /** Counts a hit; undefined (nothing counted) when the key's window is full. */
  async take(key: string): Promise<TakenHit | undefined> {
    const now = this.now();
    return this.counters.take(this.keyOf(key), this.limit, new Date(now).toISOString(), new Date(now - this.windowMs).toISOString());
  }

  /** Counts a hit; false when the key's window is full. */
  async hit(key: string): Promise<boolean> {
    return (await this.take(key)) !== undefined;
  }

  /** Gives back a hit that turned out not to count (a right password), to the window it was taken from. */
  async giveBack(hit: TakenHit): Promise<void> {
    await this.counters.giveBack(hit);
  }

  /** True when the key may not hit again in the current window (without counting). */
  async blocked(key: string): Promise<boolean> {
    return (await this.counters.hits(this.keyOf(key), new Date(this.now() - this.windowMs).toISOString())) >= this.limit;
  }

  /** Forgets the key's count (after a success that clears earlier failures, or by an operator). */
  async reset(key: string): Promise<void> {
    await this.counters.reset(this.keyOf(key));
  }

  private keyOf(key: string): string {
    return `${this.scope}:${key}`;
  }
}
