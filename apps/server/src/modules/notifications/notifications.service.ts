import { type Notification, type NotificationKey, type NotificationParams, NOTIFICATION_KEYS, SOCKET_EVENTS } from '@bogwan/contracts';
import { FilterXSS } from 'xss';
import { newId } from '../../ids.js';
import type { Realtime } from '../../realtime/gateway.js';
import type { NotificationRow, NotificationsRepo } from './notifications.repo.js';

/** How long an upload batch stays open after its latest file: files finishing within it join it. */
export const UPLOAD_BATCH_WINDOW_MS = 120_000;
/** Longest text kept for one parameter. */
const MAX_PARAM_LENGTH = 2000;

// Messages stored before keys existed may carry a little emphasis; nothing that runs, loads or links.
const sanitizer = new FilterXSS({
  whiteList: { b: [], strong: [], i: [], em: [], br: [], span: [] },
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style'],
});

/** Keeps only harmless markup (old messages shown under `note_legacy`). */
export function sanitizeMessage(message: string): string {
  return sanitizer.process(message).slice(0, 2000);
}

function parseParams(json: string): NotificationParams {
  try {
    const value: unknown = JSON.parse(json);
    if (!value || typeof value !== 'object' || Array.isArray(value)) return {};
    return Object.fromEntries(
      Object.entries(value).filter((entry): entry is [string, string | number] => typeof entry[1] === 'string' || typeof entry[1] === 'number'),
    );
  } catch {
    return {};
  }
}

export function toNotification(row: NotificationRow): Notification {
  const key = (NOTIFICATION_KEYS as readonly string[]).includes(row.message_key) ? (row.message_key as NotificationKey) : 'note_legacy';
  const params = parseParams(row.params);
  if (key === 'note_legacy') params.text = sanitizeMessage(String(params.text ?? row.message));
  if (row.batch_count > 0) params.count = row.batch_count;
  return { _id: row.id, userId: row.user_id, key, params, level: row.level, read: row.read === 1, createdAt: row.created_at };
}

/** Parameters as stored: strings cut to a sane length, numbers kept. */
function cleanParams(params: NotificationParams): NotificationParams {
  return Object.fromEntries(Object.entries(params).map(([name, value]) => [name, typeof value === 'string' ? value.slice(0, MAX_PARAM_LENGTH) : value]));
}

/**
 * The one way any module notifies a user: a message key and its parameters are stored,
 * then pushed to the user's sockets; each reader's web app renders them in its language.
 */
export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepo,
    private readonly realtime: Realtime,
  ) {}

  async notify(userId: string, key: NotificationKey, params: NotificationParams = {}, level = 0): Promise<Notification> {
    const row = this.newRow(userId, key, params, level);
    await this.repo.insert(row);
    return this.push(row);
  }

  /**
   * One finished upload: it joins the user's open batch for that folder (one notification
   * `N files uploaded to <folder>` that grows), or opens a new one. A batch is the files one
   * user uploads into one folder with no pause longer than UPLOAD_BATCH_WINDOW_MS between
   * two of them finishing; the batch lives in the database, so every process adds to it.
   */
  async uploaded(userId: string, folder: string, name: string, now = new Date()): Promise<Notification> {
    const row: NotificationRow = {
      ...this.newRow(userId, 'note_upload_batch', { folder, name }, 0, now),
      batch_key: `upload:${folder}`.slice(0, 4000),
      batch_until: new Date(now.getTime() + UPLOAD_BATCH_WINDOW_MS).toISOString(),
    };
    return this.push(await this.repo.addToBatch(row));
  }

  async list(userId: string, read: boolean | undefined): Promise<Notification[]> {
    return (await this.repo.list(userId, read)).map(toNotification);
  }

  setRead(userId: string, id: string, read: boolean): Promise<boolean> {
    return this.repo.setRead(userId, id, read);
  }

  readAll(userId: string): Promise<void> {
    return this.repo.readAll(userId);
  }

  private newRow(userId: string, key: NotificationKey, params: NotificationParams, level: number, now = new Date()): NotificationRow {
    return {
      id: newId(now.getTime()),
      user_id: userId,
      message: '',
      level,
      read: 0,
      created_at: now.toISOString(),
      message_key: key,
      params: JSON.stringify(cleanParams(params)),
      batch_key: null,
      batch_until: null,
      batch_count: 0,
    };
  }

  private push(row: NotificationRow): Notification {
    const notification = toNotification(row);
    this.realtime.emitToUser(row.user_id, SOCKET_EVENTS.notification, notification);
    return notification;
  }
}
