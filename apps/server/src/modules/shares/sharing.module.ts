import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import type { Db } from '../../db/index.js';
import type { SecretBox } from '../../crypto/secret-box.js';
import type { AuthorizeDeps } from '../../http/authorize.js';
import { requireDecorators } from '../../http/wiring.js';
import type { HousekeepingTask } from '../../jobs/housekeeping.js';
import { SpentTicketsRepo } from './spent-tickets.repo.js';
import { AttemptCountersRepo } from '../limits/attempt-counters.repo.js';
import { RateLimit } from '../limits/rate-limit.js';
import { resolveServerSecret } from '../auth/server-secret.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { requestRoutes } from '../requests/requests.routes.js';
import { RequestsRepo } from '../requests/requests.repo.js';
import { RequestsService } from '../requests/requests.service.js';
import { SecurityManagers } from '../requests/security-managers.js';
import { ReservationsRepo } from '../secure/reservations.repo.js';
import type { SecureFolders } from '../secure/secure-folders.js';
import type { DownloadService } from '../transfer/download.service.js';
import type { UsersRepo } from '../users/users.repo.js';
import { ShareDownloadTickets } from './download-tickets.js';
import { type ShareLimits, PublicSharesService } from './public-shares.service.js';
import { publicShareRoutes } from './public-shares.routes.js';
import { ShareTokens } from './share-keys.js';
import { shareRoutes } from './shares.routes.js';
import { SharesRepo } from './shares.repo.js';
import { SharesService } from './shares.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Share links and secure-folder requests (the rate limits are reachable for tests). */
    sharing: { limits: ShareLimits };
  }
}

export interface SharingModuleDeps {
  config: Config;
  db: Db;
  users: UsersRepo;
  groups: GroupsRepo;
  tree: FileTreeService;
  access: AccessService;
  notifications: NotificationsService;
  audit: AuditRecorder;
  downloads: DownloadService;
  authorize: AuthorizeDeps;
  /** Secure (locked) folders: share links and requests check them. */
  secure: SecureFolders;
  /** Seals share keys in the database. */
  secrets: SecretBox;
}

/** A download whose process died unsettled gives its use back after this long. */
const STALE_RESERVATION_MS = 24 * 60 * 60_000;

/**
 * Wires share links (owners' and public calls), secure-folder requests and the download
 * gate every byte route passes. Needs the file tree, transfer and (when present)
 * snapshots: share links expire when their item is trashed, restored from the trash or
 * put back by a snapshot restore. Answers the hourly expiry and reservation clean-up.
 */
export async function registerSharing(app: FastifyInstance, deps: SharingModuleDeps): Promise<{ housekeeping: HousekeepingTask[] }> {
  // Links expire when a snapshot restore puts their item back: a rule, not an extra.
  requireDecorators(app, 'sharing', ['snapshots', 'webhooks']);
  const { secure } = deps;
  const requestsRepo = new RequestsRepo(deps.db);
  const reservations = new ReservationsRepo(deps.db);
  const webhooks = () => app.webhooks;
  const requests = new RequestsService({
    repo: requestsRepo,
    users: deps.users,
    access: deps.access,
    secure,
    managers: new SecurityManagers(deps.users, deps.tree, deps.access, secure),
    notifications: deps.notifications,
    audit: deps.audit,
    webhooks,
    log: app.log,
  });
  const sharesRepo = new SharesRepo(deps.db, deps.secrets);
  const shares = new SharesService({
    repo: sharesRepo,
    tree: deps.tree,
    access: deps.access,
    users: deps.users,
    groups: deps.groups,
    requests: requestsRepo,
    secure,
    audit: deps.audit,
    webhooks,
    publicUrl: deps.config.publicUrl,
    notifications: deps.notifications,
  });
  const counters = new AttemptCountersRepo(deps.db);
  const limits: ShareLimits = {
    guesses: new RateLimit(counters, 'share-guess', 30, 10 * 60_000),
    passwordsPerLink: new RateLimit(counters, 'share-password-link', 10, 15 * 60_000),
    passwordsPerAddress: new RateLimit(counters, 'share-password-address', 20, 15 * 60_000),
  };
  const serverSecret = resolveServerSecret(deps.config.secret, deps.config.dataDir);
  const spentTickets = new SpentTicketsRepo(deps.db);
  const publicShares = new PublicSharesService({
    repo: sharesRepo,
    tree: deps.tree,
    access: deps.access,
    users: deps.users,
    groups: deps.groups,
    requests: requestsRepo,
    secure,
    reservations,
    tokens: new ShareTokens(serverSecret),
    downloadTickets: new ShareDownloadTickets(serverSecret, Date.now, spentTickets),
    sessions: deps.authorize.sessions,
    limits,
    audit: deps.audit,
  });

  const expire = (what: string, run: () => Promise<number>) =>
    run().then(
      () => undefined,
      (error: unknown) => app.log.error({ err: error }, `share links not expired after ${what}`),
    );
  deps.tree.onTrashMove((ids) => expire('a trash move', () => shares.expireUnder(ids)));
  app.snapshots.restored.listen((ids) => expire('a snapshot restore', () => shares.expireOn(ids)));

  app.decorate('sharing', { limits });
  await app.register(shareRoutes, { shares });
  await app.register(publicShareRoutes, { shares: publicShares, downloads: deps.downloads, authorize: deps.authorize });
  await app.register(requestRoutes, { requests });
  return {
    housekeeping: [
      { name: 'request expiry', run: () => requests.expireDue() },
      { name: 'spent download tickets', run: () => spentTickets.purgeExpired(new Date().toISOString()).then(() => undefined) },
      { name: 'download reservations', run: () => reservations.releaseStale(new Date(Date.now() - STALE_RESERVATION_MS).toISOString()).then(() => undefined) },
    ],
  };
}
