import { z } from 'zod';
import { TASK_STATUSES, TASK_TYPES } from '../enums.js';
import { NOTIFICATION_KEYS, notificationParamsSchema } from './notification-text.js';

/** Socket events the server emits to a user's sockets. */
export const SOCKET_EVENTS = { notification: 'notification', task: 'task', sessionExpired: 'session_expired', usage: 'usage' } as const;

/**
 * `usage`: the usage or volume limit of these root folders (ids) changed; at most one event
 * per short interval however many changes. The client reads its figures again.
 */
export const usageChangedEventSchema = z.object({ roots: z.array(z.string()) });
export type UsageChangedEvent = z.infer<typeof usageChangedEventSchema>;

export const notificationSchema = z.object({
  _id: z.string(),
  userId: z.string(),
  /** The message key (NOTIFICATION_KEYS); the reader's catalogue renders it with `params`. */
  key: z.enum(NOTIFICATION_KEYS),
  params: notificationParamsSchema,
  level: z.number().int(),
  read: z.boolean(),
  createdAt: z.string(),
});
export type Notification = z.infer<typeof notificationSchema>;
export const notificationQuerySchema = z.object({
  userId: z.string().max(64).optional(),
  read: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
});
export const notificationUpdateSchema = z.object({ _id: z.string().min(1).max(64), read: z.boolean() });

export const noticeSchema = z.object({
  _id: z.string(),
  title: z.string(),
  content: z.string(),
  creator: z.string(),
  createdAt: z.string(),
});
export type Notice = z.infer<typeof noticeSchema>;
export const noticeCreateSchema = z.object({
  title: z.string({ error: 'notice_title_required' }).trim().min(1, { error: 'notice_title_required' }).max(200),
  content: z.string({ error: 'notice_content_required' }).trim().min(1, { error: 'notice_content_required' }).max(20_000),
  /** Sent by the spec's client; the signed-in user is the creator whatever it says. */
  creator: z.string().optional(),
});

/** A task entry; its cache key is `type_ownerId_taskId`. */
export const taskEntrySchema = z.object({
  cacheKey: z.string(),
  type: z.enum(TASK_TYPES),
  name: z.string(),
  status: z.enum(TASK_STATUSES),
  progress: z.number().int().min(0).max(100).nullable(),
  size: z.number(),
  updatedAt: z.string(),
  extension: z.string(),
  clientPath: z.string(),
  snapshotId: z.string().nullable(),
  restoreId: z.string().nullable(),
});
export type TaskEntry = z.infer<typeof taskEntrySchema>;
/** `GET /api/cache`: the caller's tasks keyed by cache key. */
export const taskCacheSchema = z.record(z.string(), taskEntrySchema);
