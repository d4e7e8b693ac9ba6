import { taskNoteKey } from '@bogwan/contracts';
import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.js';
import type { AccessTokens } from '../modules/auth/access-token.js';
import { NoticesRepo } from '../modules/notices/notices.repo.js';
import { noticeRoutes } from '../modules/notices/notices.routes.js';
import type { AuditRecorder } from '../modules/audit/audit.recorder.js';
import { NotificationsRepo } from '../modules/notifications/notifications.repo.js';
import { notificationRoutes } from '../modules/notifications/notifications.routes.js';
import { NotificationsService } from '../modules/notifications/notifications.service.js';
import type { SessionsRepo } from '../modules/sessions/sessions.repo.js';
import { TasksRepo } from '../modules/tasks/tasks.repo.js';
import { taskRoutes } from '../modules/tasks/tasks.routes.js';
import { TasksService } from '../modules/tasks/tasks.service.js';
import { installationId } from '../modules/system/installation.js';
import { type RealtimeGateway, startGateway } from './gateway.js';
import { RootUsageRepo } from './root-usage.repo.js';
import { UsageWatch } from './usage-watch.js';

declare module 'fastify' {
  interface FastifyInstance {
    /** Events to users' open sockets; closes the sockets of ended sessions. */
    realtime: RealtimeGateway;
    /** Tells open sockets when a root folder's usage or limit changed. */
    usageWatch: UsageWatch;
  }
}

export interface RealtimeDeps {
  db: Db;
  tokens: AccessTokens;
  sessions: SessionsRepo;
  audit: AuditRecorder;
  redisUrl: string | undefined;
  /** `BOGWAN_REDIS_PREFIX`; undefined: derived from the installation id. */
  redisPrefix: string | undefined;
}

/** The Redis channel prefix of an installation that names none: its id, so two databases never share channels. */
export function defaultRedisPrefix(installation: string): string {
  return `bogwan:${installation}`;
}

/**
 * The realtime side: the socket gateway, notifications, notices and background tasks
 * (the activity log is the audit module's). A finished task notifies its owner.
 */
export async function registerRealtime(app: FastifyInstance, deps: RealtimeDeps) {
  const redisPrefix = deps.redisUrl ? (deps.redisPrefix ?? defaultRedisPrefix(await installationId(deps.db))) : '';
  const realtime = await startGateway(app, { tokens: deps.tokens, sessions: deps.sessions, redisUrl: deps.redisUrl, redisPrefix });
  app.decorate('realtime', realtime);
  const usageWatch = new UsageWatch(new RootUsageRepo(deps.db), realtime, app.log);
  app.decorate('usageWatch', usageWatch);
  app.addHook('onReady', async () => usageWatch.start());
  app.addHook('onClose', async () => usageWatch.stop());
  const notifications = new NotificationsService(new NotificationsRepo(deps.db), realtime);
  const tasksRepo = new TasksRepo(deps.db);
  const tasks = new TasksService(tasksRepo, realtime);
  tasks.whenFinished(async (row) => {
    // Finished uploads are told of per batch (files into one folder in a row), everything else per task.
    if (row.type === 'upload' && row.status === 'completed') await notifications.uploaded(row.owner_id, row.client_path, row.name);
    else
      await notifications.notify(
        row.owner_id,
        taskNoteKey(row.type, row.status),
        { name: row.name, type: row.type, status: row.status },
        row.status === 'failure' ? 1 : 0,
      );
  });

  await app.register(notificationRoutes, { notifications });
  await app.register(noticeRoutes, { notices: new NoticesRepo(deps.db), audit: deps.audit });
  await app.register(taskRoutes, { tasks });
  return { realtime, notifications, tasks, tasksRepo };
}
