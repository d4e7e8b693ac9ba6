import type { ReadinessCheck, ReadinessResponse } from '@bogwan/contracts';
import { type Db, pingDb } from '../../db/index.js';
import { pendingMigrations } from './health.repo.js';
import type { RedisProbe } from './redis-probe.js';

export interface ReadinessDeps {
  db: Db;
  /** Whether the blob store (server directory, and the cloud bucket when one is set) answers. */
  blobStoreHealthy: () => Promise<boolean>;
  /** Present only when the installation uses Redis. */
  redis: RedisProbe | undefined;
}

type State = ReadinessResponse['checks'][ReadinessCheck];

const state = (ok: boolean): State => (ok ? 'ok' : 'failed');

/** Runs every readiness check at once and names those that failed. */
export async function checkReadiness(deps: ReadinessDeps): Promise<ReadinessResponse> {
  const databaseUp = await pingDb(deps.db);
  const [migrations, blobStore, redis] = await Promise.all([
    // Without a database the migration state is unknown: reported failed too.
    databaseUp
      ? pendingMigrations(deps.db).then(
          (pending) => state(pending.length === 0),
          () => 'failed' as const,
        )
      : ('failed' as const),
    deps.blobStoreHealthy().then(state, () => 'failed' as const),
    deps.redis ? deps.redis.ping().then(state) : ('not_used' as const),
  ]);
  const checks = { database: state(databaseUp), migrations, blobStore, redis };
  const failed = (Object.keys(checks) as ReadinessCheck[]).filter((name) => checks[name] === 'failed');
  return { status: failed.length === 0 ? 'ok' : 'unavailable', checks, failed };
}
