import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { requireDecorators } from '../../http/wiring.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import { storageRoutes } from './storage.routes.js';
import { SyncRepo } from './sync.repo.js';
import { SyncService } from './sync.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Moves and copies of root folders between the server and cloud backends. */
    storageSyncs: SyncService;
  }
}

/** Wires the volume table and sync tasks; needs `app.blobStores`, `app.fileAccess` and `app.tasks`. */
export async function registerStorageSync(app: FastifyInstance, deps: { db: Db; audit: AuditRecorder }): Promise<void> {
  requireDecorators(app, 'storage-sync', ['blobStores', 'fileAccess', 'tasks']);
  const syncs = new SyncService(
    new SyncRepo(deps.db),
    app.blobStores,
    () => app.fileAccess,
    () => app.tasks,
    deps.audit,
    app.log,
  );
  app.decorate('storageSyncs', syncs);
  await app.register(storageRoutes, { syncs });
  app.addHook('onReady', async () => syncs.startRecovery());
  app.addHook('onClose', async () => syncs.close());
}
