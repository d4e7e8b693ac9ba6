import path from 'node:path';
import { fileURLToPath } from 'node:url';
import Fastify, { type FastifyInstance, type FastifyServerOptions, LogController } from 'fastify';
import { serializerCompiler, validatorCompiler } from 'fastify-type-provider-zod';
import type { Config } from './config.js';
import { type Db, migrateToLatest, openDb, pingDb } from './db/index.js';
import { registerAuthorization } from './http/authorize.js';
import { registerErrorHandler } from './http/errors.js';
import { registerOpenApi } from './http/openapi.js';
import { PolicyRegistry } from './http/policy.js';
import { registerSecurityHeaders } from './http/security-headers.js';
import { registerWebApp } from './http/web-app.js';
import { newId } from './ids.js';
import { registerAccessLog } from './modules/access-log/access-log.hook.js';
import { AccessLogRepo } from './modules/access-log/access-log.repo.js';
import { AccessLogWriter } from './modules/access-log/access-log.writer.js';
import { AccessTokens } from './modules/auth/access-token.js';
import { authRoutes } from './modules/auth/auth.routes.js';
import { AuthService } from './modules/auth/auth.service.js';
import { resolveServerSecret } from './modules/auth/server-secret.js';
import { SetupRepo } from './modules/auth/setup.repo.js';
import { SetupToken } from './modules/auth/setup-token.js';
import { SettingsRepo } from './modules/settings/settings.repo.js';
import { systemRoutes } from './modules/system/system.routes.js';
import { userRoutes } from './modules/users/users.routes.js';
import { UsersRepo } from './modules/users/users.repo.js';
import { blobRoot, ensureBlobRoot, probeBlobRoot } from './storage/blob-root.js';

/** Default location of the built web app, relative to this file (src/ or dist/). */
const DEFAULT_WEB_DIR = path.resolve(path.dirname(fileURLToPath(import.meta.url)), '../../web/dist');

declare module 'fastify' {
  interface FastifyInstance {
    config: Config;
    db: Db;
    policies: PolicyRegistry;
    accessLog: AccessLogWriter;
    /** The one-time setup token while no account exists (undefined afterwards). */
    setupToken: SetupToken;
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
  const db = openDb(config.database);
  try {
    await migrateToLatest(db);
  } catch (error) {
    await db.destroy();
    throw error;
  }
  const blobs = blobRoot(config.dataDir);
  ensureBlobRoot(blobs);

  const app = Fastify({
    logger: options.logger ?? { level: config.logLevel },
    trustProxy: config.trustProxy,
    bodyLimit: 1_048_576,
    genReqId: () => newId(),
    // Requests go to the access_log table; the process log keeps errors and events.
    logController: new LogController({ disableRequestLogging: true }),
  });
  app.setValidatorCompiler(validatorCompiler);
  app.setSerializerCompiler(serializerCompiler);

  const registry = new PolicyRegistry();
  app.addHook('onRoute', (route) => registry.record(route));

  const users = new UsersRepo(db);
  const settings = new SettingsRepo(db);
  const tokens = new AccessTokens(resolveServerSecret(config.secret, config.dataDir), config.accessTokenTtlSeconds);
  const setupToken = new SetupToken(settings, config.dataDir);
  const accessLog = new AccessLogWriter(new AccessLogRepo(db), config.accessLogMaxRows, app.log);

  app.decorate('config', config);
  app.decorate('db', db);
  app.decorate('policies', registry);
  app.decorate('accessLog', accessLog);
  app.decorate('setupToken', setupToken);

  registerErrorHandler(app);
  registerSecurityHeaders(app);
  registerAuthorization(app, { tokens, users });
  registerAccessLog(app, accessLog);
  await registerOpenApi(app);

  const auth = new AuthService(users, new SetupRepo(db), setupToken, tokens);
  await app.register(authRoutes, { auth });
  await app.register(userRoutes);
  await app.register(systemRoutes, {
    registry,
    healthy: async () => (await pingDb(db)) && (await probeBlobRoot(blobs)),
  });
  await registerWebApp(app, config.webDir ?? DEFAULT_WEB_DIR);

  app.addHook('onReady', async () => {
    if ((await users.count()) > 0) return;
    const token = await setupToken.issue();
    app.log.warn({ setupTokenFile: setupToken.file }, `First run: create the first account with the setup token ${token}`);
  });
  app.addHook('onClose', async () => {
    await accessLog.close();
    await db.destroy();
  });
  return app;
}
