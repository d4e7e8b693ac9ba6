import type { FastifyBaseLogger } from 'fastify';
import { newId } from '../../ids.js';
import type { EventsRepo } from './events.repo.js';

export interface ActivityEvent {
  /** The module that acted: auth, file, share, … */
  service: string;
  /** What happened, in words an administrator reads. */
  message: string;
  userId?: string | null;
  ip?: string | null;
}

/** The one place every module records activity. A failed write is logged, never thrown at the caller. */
export class EventsService {
  constructor(
    private readonly repo: EventsRepo,
    private readonly log: FastifyBaseLogger,
  ) {}

  async record(event: ActivityEvent): Promise<void> {
    try {
      await this.repo.insert({
        id: newId(),
        created_at: new Date().toISOString(),
        service: event.service,
        message: event.message.slice(0, 2000),
        user_id: event.userId ?? null,
        ip: event.ip ?? null,
      });
    } catch (error) {
      this.log.error({ err: error, event }, 'activity log write failed');
    }
  }
}
