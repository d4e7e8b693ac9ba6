import type { Db } from '../db/index.js';

/** Counts read at each scrape, from the database every process shares. */
export class MetricsRepo {
  constructor(private readonly db: Db) {}

  /** Background tasks by status (pending, running, done, failed, …). */
  async tasksByStatus(): Promise<{ status: string; count: number }[]> {
    const rows = await this.db
      .selectFrom('tasks')
      .select(['status', (eb) => eb.fn.countAll<number>().as('count')])
      .groupBy('status')
      .execute();
    return rows.map((row) => ({ status: row.status, count: Number(row.count) }));
  }

  /** Chunked uploads begun and not yet completed or abandoned. */
  async openUploads(): Promise<number> {
    const row = await this.db
      .selectFrom('upload_sessions')
      .select((eb) => eb.fn.countAll<number>().as('count'))
      .executeTakeFirst();
    return Number(row?.count ?? 0);
  }
}
