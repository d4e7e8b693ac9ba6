import path from 'node:path';
import type { FastifyInstance } from 'fastify';
import type { Config } from '../../config.js';
import { requireDecorators } from '../../http/wiring.js';
import type { AuditRecorder } from '../audit/audit.recorder.js';
import type { AccessService } from '../files/access.service.js';
import type { FileTreeService } from '../files/file-tree.js';
import type { GroupsRepo } from '../groups/groups.repo.js';
import { groupRoutes } from '../groups/groups.routes.js';
import { GroupsService } from '../groups/groups.service.js';
import type { LicenceService } from '../licence/licence.service.js';
import type { NotificationsService } from '../notifications/notifications.service.js';
import { DefaultPermissionsService } from '../permissions/default-permissions.service.js';
import type { PermissionsRepo } from '../permissions/permissions.repo.js';
import { permissionRoutes } from '../permissions/permissions.routes.js';
import { ResourcesService } from '../permissions/resources.service.js';
import type { SessionsService } from '../sessions/sessions.service.js';
import type { SettingsRepo } from '../settings/settings.repo.js';
import { accountRoutes } from './accounts.routes.js';
import { AccountsService } from './accounts.service.js';
import { Avatars } from './avatars.js';
import { AvatarsRepo } from './avatars.repo.js';
import type { UsersRepo } from './users.repo.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Groups (members, the default group); other modules resolve memberships through it. */
    groups: GroupsService;
  }
}

export interface AccountsModuleDeps {
  config: Config;
  users: UsersRepo;
  groups: GroupsRepo;
  permissions: PermissionsRepo;
  settings: SettingsRepo;
  sessions: SessionsService;
  licence: LicenceService;
  notifications: NotificationsService;
  audit: AuditRecorder;
  tree: FileTreeService;
  access: AccessService;
}

/** Wires accounts, groups, resources (per-node permissions) and the default permissions. */
export async function registerAccounts(app: FastifyInstance, deps: AccountsModuleDeps): Promise<void> {
  requireDecorators(app, 'accounts', ['db', 'blobStores', 'loginGuard']);
  const resources = new ResourcesService(deps.permissions, deps.tree, deps.access, deps.users, deps.groups, deps.audit);
  const groups = new GroupsService(deps.groups, deps.users, resources, deps.notifications, deps.audit);
  const avatars = new Avatars(new AvatarsRepo(app.db), path.join(deps.config.dataDir, 'avatars'));
  await avatars.importLegacyFiles();
  const accounts = new AccountsService({
    users: deps.users,
    groupsRepo: deps.groups,
    groups,
    sessions: deps.sessions,
    licence: deps.licence,
    avatars,
    audit: deps.audit,
    permissions: deps.permissions,
    guard: app.loginGuard,
    initialPassword: deps.config.initialPassword,
  });
  app.decorate('groups', groups);
  await app.register(accountRoutes, { accounts, resources, avatars });
  await app.register(groupRoutes, { groups });
  await app.register(permissionRoutes, {
    resources,
    defaults: new DefaultPermissionsService(deps.access, deps.settings, () => app.blobStores, deps.audit),
  });
}
