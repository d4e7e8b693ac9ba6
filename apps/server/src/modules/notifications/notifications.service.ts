import { type Notification, SOCKET_EVENTS } from '@bogwan/contracts';
import { FilterXSS } from 'xss';
import { newId } from '../../ids.js';
import type { Realtime } from '../../realtime/gateway.js';
import type { NotificationRow, NotificationsRepo } from './notifications.repo.js';

// Notifications may carry a little emphasis; nothing that runs, loads or links.
const sanitizer = new FilterXSS({
  whiteList: { b: [], strong: [], i: [], em: [], br: [], span: [] },
  stripIgnoreTag: true,
  stripIgnoreTagBody: ['script', 'style'],
});

/** Keeps only harmless markup. */
export function sanitizeMessage(message: string): string {
  return sanitizer.process(message).slice(0, 2000);
}

export function toNotification(row: NotificationRow): Notification {
  return {
    _id: row.id,
    userId: row.user_id,
    message: row.message,
    level: row.level,
    read: row.read === 1,
    createdAt: row.created_at,
  };
}

/** The one way any module notifies a user: stored, then pushed to the user's sockets. */
/** Text placed inside a notification's markup: shown as written, never as markup. */
export const escapeMarkup = (s: string) => s.replace(/[&<>"']/g, (c) => `&#${c.charCodeAt(0)};`);

export class NotificationsService {
  constructor(
    private readonly repo: NotificationsRepo,
    private readonly realtime: Realtime,
  ) {}

  async notify(userId: string, message: string, level = 0): Promise<Notification> {
    const row: NotificationRow = {
      id: newId(),
      user_id: userId,
      message: sanitizeMessage(message),
      level,
      read: 0,
      created_at: new Date().toISOString(),
    };
    await this.repo.insert(row);
    const notification = toNotification(row);
    this.realtime.emitToUser(userId, SOCKET_EVENTS.notification, notification);
    return notification;
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
}
