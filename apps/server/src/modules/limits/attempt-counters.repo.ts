import type { Db } from '../../db/index.js';

/** The window a hit was counted in, to give it back to that window only. */
export interface TakenHit {
  key: string;
  windowStart: string;
}

/**
 * SQL for fixed-window attempt counters shared by every server process. Each decision is
 * one statement on one row, so parallel requests and several processes count exactly:
 * PostgreSQL locks the row for an `INSERT … ON CONFLICT DO UPDATE` (a racing insert waits
 * and then updates the row it lost to), SQLite runs one writing statement at a time.
 */
export class AttemptCountersRepo {
  constructor(private readonly db: Db) {}

  /**
   * Counts one hit for `key` when its window has room (`hits < limit`), starting a new
   * window at `now` when the old one began at or before `expiredBefore`. Answers the
   * window the hit went into, or undefined (nothing counted) when the window is full.
   */
  async take(key: string, limit: number, now: string, expiredBefore: string): Promise<TakenHit | undefined> {
    const row = await this.db
      .insertInto('attempt_counters')
      .values({ key, window_start: now, hits: 1 })
      .onConflict((oc) =>
        oc
          .column('key')
          .doUpdateSet((eb) => {
            const expired = eb('attempt_counters.window_start', '<=', expiredBefore);
            return {
              hits: eb
                .case()
                .when(expired)
                .then(1)
                .else(eb('attempt_counters.hits', '+', 1))
                .end(),
              window_start: eb.case().when(expired).then(now).else(eb.ref('attempt_counters.window_start')).end(),
            };
          })
          .where((eb) => eb.or([eb('attempt_counters.window_start', '<=', expiredBefore), eb('attempt_counters.hits', '<', limit)])),
      )
      .returning(['window_start'])
      .executeTakeFirst();
    return row ? { key, windowStart: row.window_start } : undefined;
  }

  /** Takes back a hit from the window it was counted in (nothing when that window is over). */
  async giveBack(hit: TakenHit): Promise<void> {
    await this.db
      .updateTable('attempt_counters')
      .set((eb) => ({ hits: eb('hits', '-', 1) }))
      .where('key', '=', hit.key)
      .where('window_start', '=', hit.windowStart)
      .where('hits', '>', 0)
      .execute();
  }

  /** The hits of the key's window, when it began after `expiredBefore`; 0 otherwise. */
  async hits(key: string, expiredBefore: string): Promise<number> {
    const row = await this.db.selectFrom('attempt_counters').select('hits').where('key', '=', key).where('window_start', '>', expiredBefore).executeTakeFirst();
    return row?.hits ?? 0;
  }

  async reset(key: string): Promise<void> {
    await this.db.deleteFrom('attempt_counters').where('key', '=', key).execute();
  }

  /** Forgets windows that began before `before` (ISO); every limit's window is shorter. */
  async purgeBefore(before: string): Promise<void> {
    await this.db.deleteFrom('attempt_counters').where('window_start', '<', before).execute();
  }
}
