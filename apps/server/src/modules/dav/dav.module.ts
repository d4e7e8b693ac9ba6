import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import { AppError } from '../../errors.js';
import { requireDecorators } from '../../http/wiring.js';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { FilesService } from '../files/files.service.js';
import type { MovesService } from '../files/moves.service.js';
import type { DownloadService } from '../transfer/download.service.js';
import { TransferRepo } from '../transfer/transfer.repo.js';
import { DavWriteGuard } from './dav-context.js';
import { DavUploads } from './dav-put.js';
import { DavReads } from './dav-read.js';
import { davRoutes } from './dav.routes.js';
import { DavWrites } from './dav-write.js';
import { DavListingRepo } from './dav-listing.repo.js';
import { DeadPropertiesRepo } from './dead-properties.repo.js';
import { type DavLocksService, releaseLocksOnTrash } from './locks/dav-locks.js';
import { LockHandlers } from './locks/lock-handlers.js';
import type { DavAuthenticator } from './ports.js';
import { DavProperties } from './properties.js';

export interface DavModuleDeps {
  db: Db;
  audit: AuditRecorder;
  tree: FileTreeService;
  access: AccessService;
  files: FilesService;
  moves: MovesService;
  downloads: DownloadService;
  /** HTTP Basic with an app password (required: every WebDAV request is authenticated through it). */
  authenticator: DavAuthenticator;
  /** The lock service (required: every write passes its check; LOCK and UNLOCK are built on it). */
  locks: DavLocksService;
}

/**
 * WebDAV (RFC 4918) under `/dav/`: the same tree, permissions and services as the web,
 * authenticated by app passwords. Registers the `app-password` authentication kind that its
 * routes' policies name. Needs the blob stores and webhooks registered before it.
 */
export async function registerDav(app: FastifyInstance, deps: DavModuleDeps): Promise<{ housekeeping: HousekeepingTask[] }> {
  requireDecorators(app, 'dav', ['blobStores', 'webhooks', 'addAuthenticator']);
  const { authenticator } = deps;
  app.addAuthenticator('app-password', async (request) => {
    const userAgent = request.headers['user-agent'];
    const verdict = await authenticator.verifyBasic(request.headers.authorization, { ip: request.ip, ...(userAgent ? { userAgent } : {}) });
    if ('refused' in verdict) {
      if (verdict.refused === 'throttled') throw new AppError(429, 'too_many_requests_message');
      return null;
    }
    return verdict.user;
  });
  const dead = new DeadPropertiesRepo(deps.db);
  const guard = new DavWriteGuard(deps.tree, deps.locks);
  // Items trashed by any client (the web too) leave no lock behind on their URLs.
  releaseLocksOnTrash(deps.tree, deps.locks, app.log);
  const uploads = new DavUploads(deps.tree, deps.access, app.blobStores, new TransferRepo(deps.db), deps.audit, app.webhooks, app.log);
  const properties = new DavProperties(deps.tree.repo, dead, deps.locks);
  const reads = new DavReads(deps.tree, deps.access, deps.files, deps.downloads, properties, new DavListingRepo(deps.db));
  const writes = new DavWrites(deps.tree, deps.access, deps.files, deps.moves, uploads, dead, guard);
  const lockHandlers = new LockHandlers({
    locks: deps.locks,
    tree: deps.tree,
    access: deps.access,
    etagOf: (path) => guard.etag(path),
    // RFC 4918 7.3: LOCK on an unmapped URL stores an empty file, as a PUT of zero bytes.
    createEmptyFile: async (account, path) => {
      const plan = await uploads.plan({ user: account, ip: null }, path, 0);
      // A file that appeared since the LOCK looked is kept as it is (never emptied); the plan checked UPDATE on it.
      if (plan.existing) return;
      await uploads.store(plan, (async function* () {})(), 0);
    },
  });
  await app.register(davRoutes, { reads, writes, lockHandlers });
  return { housekeeping: [deps.locks.housekeeping()] };
}
