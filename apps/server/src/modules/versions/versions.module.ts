import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { WriteLocks } from '../files/ports.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import type { DownloadService } from '../transfer/download.service.js';
import { TransferRepo } from '../transfer/transfer.repo.js';
import type { UsersRepo } from '../users/users.repo.js';
import { VersionDownloads } from './version-downloads.js';
import { versionRoutes } from './versions.routes.js';
import { VersionsRepo } from './versions.repo.js';
import { VersionsService } from './versions.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** File versions (tests run the retention through it). */
    versions: VersionsService;
  }
}

export interface VersionsModuleDeps {
  db: Db;
  tree: FileTreeService;
  access: AccessService;
  users: UsersRepo;
  settings: SettingsRepo;
  audit: AuditRecorder;
  writeLocks: WriteLocks;
  downloads: DownloadService;
  stores: BlobStores;
}

/**
 * Wires file versions (list, download, restore, delete), their retention settings and the
 * upload conflict check; answers the retention's pruning for the housekeeping job.
 */
export async function registerVersions(app: FastifyInstance, deps: VersionsModuleDeps): Promise<{ housekeeping: HousekeepingTask[] }> {
  const versions = new VersionsService(deps.tree, deps.access, new VersionsRepo(deps.db), deps.users, deps.settings, deps.audit, deps.writeLocks);
  const downloads = new VersionDownloads(versions, deps.downloads, new TransferRepo(deps.db), deps.stores, deps.audit);
  app.decorate('versions', versions);
  await app.register(versionRoutes, { versions, downloads });
  return { housekeeping: [{ name: 'version retention', run: () => versions.prune().then(() => undefined) }] };
}
