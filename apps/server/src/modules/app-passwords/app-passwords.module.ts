import type { FastifyInstance } from 'fastify';
import type { Db } from '../../db/index.js';
import type { Reauthentication } from '../auth/reauth.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { RateLimit } from '../limits/rate-limit.js';
import type { UsersRepo } from '../users/users.repo.js';
import { AppPasswordsRepo } from './app-passwords.repo.js';
import { appPasswordRoutes } from './app-passwords.routes.js';
import { AppPasswordsService } from './app-passwords.service.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** App passwords; WebDAV authenticates every request through `verifyBasic`. */
    appPasswords: AppPasswordsService;
  }
}

export interface AppPasswordsModuleDeps {
  db: Db;
  users: UsersRepo;
  audit: AuditRecorder;
  reauth: Reauthentication;
  /** The sign-in address limit built in app.ts (shared with password sign-in). */
  signInAddresses: RateLimit;
  serverSecret: string;
}

/** Wires app passwords: the settings calls and the `app.appPasswords` authenticator. */
export async function registerAppPasswords(app: FastifyInstance, deps: AppPasswordsModuleDeps): Promise<AppPasswordsService> {
  const appPasswords = new AppPasswordsService({ ...deps, repo: new AppPasswordsRepo(deps.db) });
  app.decorate('appPasswords', appPasswords);
  await app.register(appPasswordRoutes, { appPasswords });
  return appPasswords;
}
