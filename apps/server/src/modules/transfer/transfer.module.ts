import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import { requireDecorators } from '../../http/wiring.js';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import { BlobStores } from '../../storage/blob-stores.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { WriteLocks } from '../files/ports.js';
import type { SessionsRepo } from '../sessions/sessions.repo.js';
import { SettingsRepo } from '../settings/settings.repo.js';
import { installationId } from '../system/installation.js';
import { DownloadService } from './download.service.js';
import type { DownloadGate } from './download-gate.js';
import { PreviewTickets } from './preview-tickets.js';
import { storageSettingsRoutes } from './storage-settings.routes.js';
import { StorageUseRepo } from './storage-use.repo.js';
import { TransferJobs } from './transfer.jobs.js';
import { TransferRepo } from './transfer.repo.js';
import { transferRoutes } from './transfer.routes.js';
import { UploadService } from './upload.service.js';
import { UploadTasks } from './upload-tasks.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** The blob stores of the server and cloud backends. */
    blobStores: BlobStores;
    /** Chunked uploads (tests reach their running hashes through it). */
    uploads: UploadService;
  }
}

export interface TransferModuleDeps {
  config: Config;
  db: Db;
  settings: SettingsRepo;
  audit: AuditRecorder;
  sessions: SessionsRepo;
  /** The server secret; preview tickets are signed with a key derived from it. */
  serverSecret: string;
  /** The secure-folder check every byte route passes (required: a security check). */
  downloadGate: DownloadGate;
  /** WebDAV locks every upload chunk passes (required: the check never skips). */
  writeLocks: WriteLocks;
}

/**
 * Wires the blob stores, upload, download, preview and the storage settings. Needs
 * `app.fileTree` and `app.fileAccess` (the file tree module); answers the hourly
 * clean-up tasks for the housekeeping runner.
 */
export async function registerTransfer(
  app: FastifyInstance,
  deps: TransferModuleDeps,
): Promise<{ stores: BlobStores; downloads: DownloadService; housekeeping: HousekeepingTask[] }> {
  requireDecorators(app, 'transfer', ['fileTree', 'fileAccess', 'tasks', 'webhooks']);
  const stores = blobStoresOf(deps.config, deps.db, deps.settings);
  const repo = new TransferRepo(deps.db);
  const tree = () => app.fileTree;
  const access = () => app.fileAccess;
  const progress = new UploadTasks(() => app.tasks, app.log);
  const uploads = new UploadService(repo, stores, tree, access, deps.writeLocks, deps.audit, app.log, progress, () => app.webhooks);
  const downloads = new DownloadService(stores, tree, access, deps.audit, app.log, deps.downloadGate);
  app.decorate('blobStores', stores);
  app.decorate('uploads', uploads);
  const tickets = new PreviewTickets(deps.serverSecret);
  await app.register(transferRoutes, { uploads, downloads, tickets, sessions: deps.sessions });
  await app.register(storageSettingsRoutes, { stores, settings: deps.settings, audit: deps.audit, use: new StorageUseRepo(deps.db) });
  app.addHook('onClose', async () => {
    await uploads.close();
    await stores.close();
  });
  return { stores, downloads, housekeeping: new TransferJobs(repo, stores, app.log).tasks() };
}

function blobStoresOf(config: Config, db: Db, settings: SettingsRepo): BlobStores {
  return new BlobStores(settings, config.dataDir, config.s3, () => installationId(db));
}

/**
 * Refuses to go on (ServerPathNotSharedError, naming server.path) when this process's
 * server storage directory is not the one the installation's other processes use; the
 * first process of an installation gives the directory its identity. Run at start-up.
 */
export async function verifyServerStorage(config: Config, db: Db): Promise<void> {
  const stores = blobStoresOf(config, db, new SettingsRepo(db));
  try {
    await stores.local();
  } finally {
    stores.close();
  }
}
