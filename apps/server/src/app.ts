import path from 'node:path';
import { fileURLToPath } from 'node:url';
import fastifyCookie from '@fastify/cookie';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { sealPlaintextSecrets } from './crypto/sealing.repo.js';
import { SecretBox } from './crypto/secret-box.js';
import { prepareDataDir } from './data-dir.js';
import { type Db, migrateToLatest, openDb, pingDb } from './db/index.js';
import { registerAdmission } from './http/admission.js';
import { registerAuthorization } from './http/authorize.js';
import { registerJsonCompression } from './http/compression.js';
import { registerErrorHandler } from './http/errors.js';
import { registerMultipartChecks } from './http/multipart.js';
import { registerOpenApi } from './http/openapi.js';
import { registerRequestLog } from './http/request-log.js';
import { PolicyRegistry } from './http/policy.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerWebApp } from './http/web-app.js';
import { newId } from './ids.js';
import { startHousekeeping } from './jobs/housekeeping.js';
import { registerAccessLog } from './modules/access-log/access-log.hook.js';
import { AccessLogRepo } from './modules/access-log/access-log.repo.js';
import { AccessLogService } from './modules/access-log/access-log.service.js';
import { AccessLogWriter } from './modules/access-log/access-log.writer.js';
import { registerAppPasswords } from './modules/app-passwords/app-passwords.module.js';
import { AccessTokens } from './modules/auth/access-token.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { LoginGuard, SIGN_IN_ADDRESS_WINDOW_MS } from './modules/auth/login-guard.js';
import { LoginGuardRepo } from './modules/auth/login-guard.repo.js';
import { Reauthentication } from './modules/auth/reauth.js';
import { resolveServerSecret } from './modules/auth/server-secret.js';
import { SetupRepo } from './modules/auth/setup.repo.js';
import { SetupToken } from './modules/auth/setup-token.js';
import { AttemptCountersRepo } from './modules/limits/attempt-counters.repo.js';
import { RateLimit } from './modules/limits/rate-limit.js';
import { licencePublicKey } from './modules/licence/licence-key.js';
import { registerLicence } from './modules/licence/licence.gate.js';
import { warnOfLicenceEnd } from './modules/licence/licence-warnings.js';
import { LicenceRepo } from './modules/licence/licence.repo.js';
import { licenceRoutes } from './modules/licence/licence.routes.js';
import { LicenceService } from './modules/licence/licence.service.js';
import { registerAuditContext } from './modules/audit/audit-context.js';
import { registerAudit } from './modules/audit/audit.module.js';
import { registerDashboard } from './modules/dashboard/dashboard.module.js';
import { registerHealth } from './modules/health/health.module.js';
import { registerMetrics } from './metrics/metrics.module.js';
import { registerFiles } from './modules/files/files.module.js';
import { registerVersions } from './modules/versions/versions.module.js';
import { answerFrameworkError } from './modules/dav/dav-bad-urls.js';
import { registerDav } from './modules/dav/dav.module.js';
import { DavLocksService } from './modules/dav/locks/dav-locks.js';
import { DavLocksRepo } from './modules/dav/locks/locks.repo.js';
import { webWriteLocks } from './modules/dav/locks/web-write-locks.js';
import { GroupsRepo } from './modules/groups/groups.repo.js';
import { PermissionsRepo } from './modules/permissions/permissions.repo.js';
import { type Mailer, OutboxMailer, SmtpMailer } from './modules/mail/mailer.js';
import { ChallengesRepo } from './modules/mfa/challenges.repo.js';
import { MfaService } from './modules/mfa/mfa.service.js';
import { SessionsRepo } from './modules/sessions/sessions.repo.js';
import { SessionsService } from './modules/sessions/sessions.service.js';
import type { TasksService } from './modules/tasks/tasks.service.js';
import { SettingsRepo } from './modules/settings/settings.repo.js';
import { registerTransfer, verifyServerStorage } from './modules/transfer/transfer.module.js';
import { registerDownloadTickets } from './modules/transfer/download-tickets.module.js';
import { registerSnapshots } from './modules/snapshots/snapshots.module.js';
import { registerSharing } from './modules/shares/sharing.module.js';
import { registerStorageSync } from './modules/storage-sync/storage-sync.module.js';
import { AdminMode } from './modules/settings/admin-mode.js';
import { adminModeRoutes } from './modules/settings/admin-mode.routes.js';
import { registerWebhooks } from './modules/webhooks/webhooks.module.js';
import { registerSearch } from './modules/search/search.module.js';
import { registerRealtime } from './realtime/realtime.module.js';
import { verifySharedSecret } from './modules/system/shared-secret.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { registerAccounts } from './modules/users/accounts.module.js';
import { userRoutes } from './modules/users/users.routes.js';
import { UsersRepo } from './modules/users/users.repo.js';
import { WebauthnRepo } from './modules/webauthn/webauthn.repo.js';
import { webauthnRoutes } from './modules/webauthn/webauthn.routes.js';
import { WebauthnService } from './modules/webauthn/webauthn.service.js';
import { RequestsRepo } from './modules/requests/requests.repo.js';
import { ReservationsRepo } from './modules/secure/reservations.repo.js';
import { SecureDownloadGate } from './modules/secure/secure-gate.js';
import { SecureFolders } from './modules/secure/secure-folders.js';
import { SecureRepo } from './modules/secure/secure.repo.js';
import { blobRoot, ensureBlobRoot } from './storage/blob-root.js';

/** Default location of the built web app, relative to this file (src/ or dist/). */
const DEFAULT_WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    policies: PolicyRegistry;
    /** Lifts sign-in restrictions and ends sessions (operator command line). */
    loginGuard: LoginGuard;
    /** Background tasks (task panel); any module reports progress through it. */
    tasks: TasksService;
    accessLog: AccessLogWriter;
    /** The one-time setup token while no account exists (undefined afterwards). */
    setupToken: SetupToken;
    /** Admin mode per session (unlocks the cloud storage settings). */
    adminMode: AdminMode;
  }
}

export interface BuildOptions {
  logger?: FastifyServerOptions['logger'];
}

/**
 * Builds the server: opens and migrates the database, wires modules and routes. Never
 * listens (main.ts does); tests call it with a temporary data directory.
 */
export async function buildApp(config: Config, options: BuildOptions = {}): Promise<FastifyInstance> {
  prepareDataDir(config.dataDir);
  const serverSecret = resolveServerSecret(config.secret, config.dataDir);
  const secrets = new SecretBox(serverSecret);
  const db = openDb(config.database);
  try {
    await migrateToLatest(db);
    // A process with another secret than the installation's (BOGWAN_SECRET) stops here.
    await verifySharedSecret(db, serverSecret);
    // Secrets written before they were sealed (migrations cannot: they do not know the secret).
    await sealPlaintextSecrets(db, secrets);
    // A process whose server storage directory is not the installation's shared one stops here.
    await verifyServerStorage(config, db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const blobs = blobRoot(config.dataDir);
  ensureBlobRoot(blobs);

  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: trustedProxies(config.trustProxy),
    bodyLimit: 1_048_576,
    // Start-up work (migrations, realtime, blob checks) can take longer than Fastify's 10 s on a busy or slow machine.
    pluginTimeout: 60_000,
    genReqId: () => newId(),
    // Requests go to the access_log table; the process log keeps errors and events.
    logController: new LogController({ disableRequestLogging: true }),
    // A URL that does not decode: WebDAV's answer under /dav, Fastify's own elsewhere.
    frameworkErrors: answerFrameworkError,
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const registry = new PolicyRegistry();
  app.addHook('onRoute', (route) => registry.record(route));

  const users = new UsersRepo(db);
  const settings = new SettingsRepo(db);
  const tokens = new AccessTokens(serverSecret, config.accessTokenTtlSeconds);
  const setupToken = new SetupToken(settings, config.dataDir);
  const accessLog = new AccessLogWriter(new AccessLogRepo(db), config.accessLogMaxRows, app.log);

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('policies', registry);
  app.decorate('accessLog', accessLog);
  app.decorate('setupToken', setupToken);

  registerErrorHandler(app);
  // First of the request hooks: a request waiting for its turn costs nothing else meanwhile.
  registerAdmission(app, config.admission);
  registerMultipartChecks(app);
  registerSecurityHeaders(app);
  registerJsonCompression(app);
  if (config.logRequests) registerRequestLog(app);
  await registerMetrics(app, { config, db });
  await app.register(fastifyCookie);
  const sessionsRepo = new SessionsRepo(db);
  const authorize = { tokens, sessions: sessionsRepo };
  // Client address, user agent and actor of each request, for the audit trail. Opened before
  // the authorization hook, so an authenticator that names another actor (an app password) is heard.
  registerAuditContext(app);
  registerAuthorization(app, authorize);
  const licence = new LicenceService(settings, new LicenceRepo(db), licencePublicKey(config.licensePublicKey));
  registerLicence(app, licence);
  registerAccessLog(app, accessLog);
  await registerOpenApi(app);

  const audit = await registerAudit(app, { db, settings, dataDir: config.dataDir, serverSecret, authorize, users });
  // Every module records through the audit trail's recorder.
  const recorder = audit.recorder;
  // Before the sessions: ending a session closes its sockets.
  const { realtime, tasks, tasksRepo, notifications } = await registerRealtime(app, {
    db,
    tokens,
    sessions: sessionsRepo,
    audit: recorder,
    redisUrl: config.redisUrl,
    redisPrefix: config.redisPrefix,
  });
  app.decorate('tasks', tasks);
  const mailer: Mailer = config.smtpUrl
    ? new SmtpMailer(config.smtpUrl, config.mailFrom)
    : new OutboxMailer(path.join(config.dataDir, 'outbox'), config.mailFrom, app.log);
  // Attempt limits live in the database: one count for every process (see modules/limits).
  const attemptCounters = new AttemptCountersRepo(db);
  const signInAddresses = new RateLimit(attemptCounters, 'sign-in-address', config.loginIpMaxFailures, SIGN_IN_ADDRESS_WINDOW_MS);
  const guard = new LoginGuard(new LoginGuardRepo(db), config.loginLockMinutes, signInAddresses);
  const webauthnRepo = new WebauthnRepo(db);
  const challenges = new ChallengesRepo(db);
  const mfa = new MfaService(challenges, users, webauthnRepo, guard, mailer, secrets, recorder);
  const sessions = new SessionsService(sessionsRepo, tokens, config.refreshTokenTtlSeconds, realtime);
  const auth = new AuthService(users, new SetupRepo(db), setupToken, guard, mfa, sessions, recorder);
  const refreshTtlSeconds = config.refreshTokenTtlSeconds;
  const reauth = new Reauthentication(users, guard, recorder);
  app.decorate('loginGuard', guard);
  await app.register(authRoutes, { auth, mfa, sessions, authorize, refreshTtlSeconds, reauth });
  await app.register(webauthnRoutes, {
    webauthn: new WebauthnService(webauthnRepo),
    auth,
    users,
    guard,
    publicUrl: config.publicUrl,
    refreshTtlSeconds,
    reauth,
    audit: recorder,
  });
  await app.register(userRoutes, { auth, tokens });
  await app.register(licenceRoutes, { licence, audit: recorder, ...authorize });
  await registerWebhooks(app, { config, db, settings, users, audit: recorder, secrets });
  const groups = new GroupsRepo(db);
  const permissions = new PermissionsRepo(db);
  // Security checks are built here and handed to every module that must apply them.
  const secure = new SecureFolders(new SecureRepo(db));
  // WebDAV locks hold for the web's writes too: one lock service, one conflict rule.
  const davLocks = new DavLocksService(new DavLocksRepo(db));
  const writeLocks = webWriteLocks(davLocks, app.log);
  const downloadGate = new SecureDownloadGate(secure, new RequestsRepo(db), new ReservationsRepo(db));
  const { trashRetention, tree, access, files, moves } = await registerFiles(app, {
    db,
    settings,
    users,
    audit: recorder,
    groups,
    permissions,
    secure,
    writeLocks,
  });
  const adminMode = new AdminMode(settings);
  app.decorate('adminMode', adminMode);
  const transfer = await registerTransfer(app, { config, db, settings, audit: recorder, sessions: sessionsRepo, serverSecret, downloadGate, writeLocks });
  await registerDownloadTickets(app, { db, serverSecret, authorize, sessions: sessionsRepo, downloads: transfer.downloads });
  const versions = await registerVersions(app, {
    db,
    tree,
    access,
    users,
    settings,
    audit: recorder,
    writeLocks,
    downloads: transfer.downloads,
    stores: transfer.stores,
  });
  await registerAccounts(app, { config, users, groups, permissions, settings, sessions, licence, notifications, audit: recorder, tree, access });
  const appPasswords = await registerAppPasswords(app, { db, users, audit: recorder, reauth, signInAddresses, serverSecret });
  const dav = await registerDav(app, {
    db,
    audit: recorder,
    tree,
    access,
    files,
    moves,
    downloads: transfer.downloads,
    authenticator: appPasswords,
    locks: davLocks,
  });
  await registerSnapshots(app, { config, db, audit: recorder });
  const sharing = await registerSharing(app, {
    config,
    db,
    users,
    groups,
    tree,
    access,
    notifications,
    audit: recorder,
    downloads: transfer.downloads,
    authorize,
    secure,
    secrets,
  });
  await registerStorageSync(app, { db, audit: recorder });
  await app.register(adminModeRoutes, { audit: recorder, adminMode, attemptCounters });
  const search = await registerSearch(app, { db });
  const accessLogService = new AccessLogService(new AccessLogRepo(db), config.accessLogRetentionDays);
  await app.register(systemRoutes, {
    registry,
    healthy: async () => ((await pingDb(db)) ? transfer.stores.health() : { ok: false }),
    accessLog: accessLogService,
  });
  await registerHealth(app, { db, redisUrl: config.redisUrl, blobStoreHealthy: async () => (await transfer.stores.health()).ok });
  await registerDashboard(app, { db, licence });
  await registerWebApp(app, config.webDir ?? DEFAULT_WEB_DIR);

  app.addHook('onReady', async () => {
    if ((await users.count()) > 0) return;
    // Written to the data directory now; main.ts announces it with the address once listening.
    await setupToken.issue();
  });
  const stopHousekeeping = startHousekeeping(
    [
      { name: 'sessions', run: (before) => sessionsRepo.purgeExpired(before) },
      { name: 'login challenges', run: (before) => challenges.purgeBefore(before) },
      { name: 'attempt counters', run: (before) => attemptCounters.purgeBefore(before) },
      { name: 'webauthn challenges', run: () => webauthnRepo.purgeChallengesBefore(new Date().toISOString()) },
      { name: 'finished tasks', run: (before) => tasksRepo.purgeFinishedBefore(before) },
      { name: 'admin mode', run: () => adminMode.purge() },
      { name: 'licence end warning', run: () => warnOfLicenceEnd(licence, settings, users, notifications).then(() => undefined) },
      ...transfer.housekeeping,
      ...sharing.housekeeping,
      ...search.housekeeping,
      ...dav.housekeeping,
      { name: 'access log retention', run: () => accessLogService.applyRetention().then(() => undefined) },
      { name: 'trash retention', run: () => trashRetention.apply().then(() => undefined) },
      ...versions.housekeeping,
      ...audit.housekeeping,
    ],
    app.log,
  );
  app.addHook('onClose', async () => {
    stopHousekeeping();
    await accessLog.close();
    await db.destroy();
  });
  return app;
}

/**
 * Fastify's `trustProxy` from the configuration. A hop count becomes a function because
 * Fastify treats a bare number as "trust nothing"; `hop < n` believes the socket's peer
 * and the n - 1 addresses it appended, so the client is the next address to the left.
 */
function trustedProxies(trust: Config['trustProxy']): FastifyServerOptions['trustProxy'] {
  if (typeof trust !== 'number') return trust;
  return (_address: string, hop: number) => hop < trust;
}
