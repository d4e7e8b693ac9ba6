import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { requireDecorators } from '../../http/wiring.js';
import type { LicenceService } from '../licence/licence.service.js';
import { DashboardRepo } from './dashboard.repo.js';
import { dashboardRoutes } from './dashboard.routes.js';
import { DashboardService } from './dashboard.service.js';

/** Wires `GET /api/dashboard`. Needs `app.blobStores` (the transfer module) for the disk figures and the snapshots module's summary. */
export async function registerDashboard(app: FastifyInstance, deps: { db: Db; licence: LicenceService }): Promise<void> {
  requireDecorators(app, 'dashboard', ['blobStores', 'snapshotSummary']);
  const dashboard = new DashboardService({
    repo: new DashboardRepo(deps.db),
    licence: deps.licence,
    serverPath: () => app.blobStores.serverPath(),
    snapshots: () => app.snapshotSummary,
    log: app.log,
  });
  await app.register(dashboardRoutes, { dashboard });
}
