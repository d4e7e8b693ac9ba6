import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { healthRoutes } from './health.routes.js';
import { RedisProbe } from './redis-probe.js';

export interface HealthDeps {
  db: Db;
  redisUrl: string | undefined;
  blobStoreHealthy: () => Promise<boolean>;
}

/** Liveness and readiness routes; `/api/health` (the combined check) stays with the system routes. */
export async function registerHealth(app: FastifyInstance, deps: HealthDeps): Promise<void> {
  const redis = deps.redisUrl ? new RedisProbe(deps.redisUrl, app.log) : undefined;
  app.addHook('onClose', async () => {
    await redis?.close();
  });
  await app.register(healthRoutes, { db: deps.db, blobStoreHealthy: deps.blobStoreHealthy, redis });
}
