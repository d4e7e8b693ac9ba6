import type { Db } from '../db/index.js';

/** One root folder's figures the usage bar shows. */
export interface RootUsageRow {
  id: string;
  usage_bytes: number;
  volume_limit: number | null;
}

/** Reads the root folders' usage and limits (a handful of rows; roots keep their usage incrementally). */
export class RootUsageRepo {
  constructor(private readonly db: Db) {}

  roots(): Promise<RootUsageRow[]> {
    return this.db.selectFrom('nodes').select(['id', 'usage_bytes', 'volume_limit']).where('parent_id', '=', '').execute();
  }
}
