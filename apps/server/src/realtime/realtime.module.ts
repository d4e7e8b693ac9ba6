import type { FastifyInstance } from 'fastify';
import type { Db } from '../db/index.js';
import type { AccessTokens } from '../modules/auth/access-token.js';
import { NoticesRepo } from '../modules/notices/notices.repo.js';
import { noticeRoutes } from '../modules/notices/notices.routes.js';
import type { AuditRecorder } from '../modules/audit/audit.recorder.js';
import { NotificationsRepo } from '../modules/notifications/notifications.repo.js';
import { notificationRoutes } from '../modules/notifications/notifications.routes.js';
import { escapeMarkup, NotificationsService } from '../modules/notifications/notifications.service.js';
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

const TASK_WORDS: Record<string, string> = { upload: '업로드 (upload)', sync: '동기화 (sync)', snapshot: '스냅샷 (snapshot)', restore: '복원 (restore)' };

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
    const what = TASK_WORDS[row.type] ?? row.type;
    const outcome = row.status === 'completed' ? '완료 (completed)' : row.status === 'canceled' ? '취소 (canceled)' : '실패 (failed)';
    await notifications.notify(row.owner_id, `${what} ${outcome}: <b>${escapeMarkup(row.name)}</b>`, row.status === 'failure' ? 1 : 0);
  });

  await app.register(notificationRoutes, { notifications });
  await app.register(noticeRoutes, { notices: new NoticesRepo(deps.db), audit: deps.audit });
  await app.register(taskRoutes, { tasks });
  return { realtime, notifications, tasks, tasksRepo };
}
