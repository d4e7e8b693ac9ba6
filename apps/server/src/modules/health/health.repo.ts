import { Migrator } from 'kysely';
import type { Db } from '../../db/index.js';
import { migrations } from '../../db/migrations/index.js';

/** Names of the migrations this build knows that the database has not run yet. */
export async function pendingMigrations(db: Db): Promise<string[]> {
  const migrator = new Migrator({ db, provider: { getMigrations: async () => migrations } });
  const known = await migrator.getMigrations();
  return known.filter((migration) => migration.executedAt === undefined).map((migration) => migration.name);
}
