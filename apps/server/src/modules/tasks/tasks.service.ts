import { SOCKET_EVENTS, type TaskEntry, type TaskStatus, type TaskType } from '@bogwan/contracts';
import { conflict, notFound } from '../../errors.js';
import { newId } from '../../ids.js';
import type { Realtime } from '../../realtime/gateway.js';
import type { TaskRow, TasksRepo } from './tasks.repo.js';

export interface NewTask {
  /** A caller-chosen id (e.g. the upload session's), else a new one. */
  id?: string;
  type: TaskType;
  ownerId: string;
  name: string;
  size?: number;
  extension?: string;
  clientPath?: string;
  snapshotId?: string | null;
  restoreId?: string | null;
}

export interface TaskUpdate {
  status?: TaskStatus;
  progress?: number | null;
  size?: number;
  clientPath?: string;
}

const FINISHED: TaskStatus[] = ['completed', 'canceled', 'failure'];

/** The spec's cache key: `type_ownerId_taskId`. */
export const cacheKeyOf = (row: TaskRow) => `${row.type}_${row.owner_id}_${row.id}`;

export function toTaskEntry(row: TaskRow): TaskEntry {
  return {
    cacheKey: cacheKeyOf(row),
    type: row.type as TaskType,
    name: row.name,
    status: row.status as TaskStatus,
    progress: row.progress,
    size: row.size,
    updatedAt: row.updated_at,
    extension: row.extension,
    clientPath: row.client_path,
    snapshotId: row.snapshot_id,
    restoreId: row.restore_id,
  };
}

/** Notified when a task finishes, so its owner hears of it. */
export type TaskFinishedListener = (row: TaskRow) => Promise<void>;

/**
 * Background tasks as the task panel shows them: stored, and every change pushed to the
 * owner's sockets as a `task` event. Work that can be stopped registers a canceller.
 */
export class TasksService {
  private readonly cancellers = new Map<string, () => void>();
  private onFinished: TaskFinishedListener | undefined;

  constructor(
    private readonly repo: TasksRepo,
    private readonly realtime: Realtime,
  ) {}

  /** Sets the listener told of every finished task (the notification producer). */
  whenFinished(listener: TaskFinishedListener): void {
    this.onFinished = listener;
  }

  async start(task: NewTask, cancel?: () => void): Promise<TaskRow> {
    const now = new Date().toISOString();
    const row: TaskRow = {
      id: task.id ?? newId(),
      type: task.type,
      owner_id: task.ownerId,
      name: task.name,
      status: 'running',
      progress: 0,
      size: task.size ?? 0,
      extension: task.extension ?? '',
      client_path: task.clientPath ?? '',
      snapshot_id: task.snapshotId ?? null,
      restore_id: task.restoreId ?? null,
      created_at: now,
      updated_at: now,
    };
    await this.repo.insert(row);
    if (cancel) this.cancellers.set(row.id, cancel);
    this.push(row);
    return row;
  }

  /**
   * Changes a task. A task finishes once: the first finishing update wins and notifies its
   * owner; later ones (the runner's own report after a cancel, a second process, a late
   * progress tick) leave the finished task as it is and notify no one. Setting a running
   * or pending status again is the one way back (a resumed upload).
   * With `quiet`, a task that finishes does not notify its owner (housekeeping work such as search indexing).
   */
  async update(id: string, change: TaskUpdate, options: { quiet?: boolean } = {}): Promise<TaskRow | undefined> {
    const progress = change.progress === undefined ? undefined : change.progress === null ? null : Math.max(0, Math.min(100, Math.round(change.progress)));
    const status = progress === 100 && change.status === undefined ? 'completed' : change.status;
    const finishing = status !== undefined && FINISHED.includes(status);
    const { row, changed } = await this.repo.update(
      id,
      {
        ...(status !== undefined ? { status } : {}),
        ...(progress !== undefined ? { progress } : {}),
        ...(change.size !== undefined ? { size: change.size } : {}),
        ...(change.clientPath !== undefined ? { client_path: change.clientPath } : {}),
        updated_at: new Date().toISOString(),
      },
      status === undefined || finishing,
    );
    if (finishing) this.cancellers.delete(id);
    if (!row || !changed) return row;
    this.push(row);
    if (finishing && !options.quiet) await this.onFinished?.(row);
    return row;
  }

  async cacheOf(ownerId: string): Promise<Record<string, TaskEntry>> {
    const rows = await this.repo.ofOwner(ownerId);
    return Object.fromEntries(rows.map((r) => [cacheKeyOf(r), toTaskEntry(r)]));
  }

  /** Removes one of the owner's finished tasks (by cache key). */
  async remove(ownerId: string, cacheKey: string): Promise<void> {
    const id = cacheKey.split('_').at(-1) ?? '';
    const row = await this.repo.find(id);
    if (!row || row.owner_id !== ownerId || cacheKeyOf(row) !== cacheKey) throw notFound();
    if (!FINISHED.includes(row.status as TaskStatus)) throw conflict('task_not_cancelable');
    await this.repo.delete(id);
  }

  /**
   * Cancels a running snapshot or restore: the owner or an administrator. The canceller
   * of the process running it stops the work; the task is marked canceled at once.
   */
  async cancel(type: 'snapshot' | 'restore', ref: string, caller: { id: string; role_level: number }): Promise<TaskRow> {
    const row = await this.repo.findActive(type, ref);
    if (!row || (row.owner_id !== caller.id && caller.role_level < 2)) throw conflict('task_not_cancelable');
    this.cancellers.get(row.id)?.();
    const updated = await this.update(row.id, { status: 'canceled' });
    return updated ?? row;
  }

  private push(row: TaskRow): void {
    this.realtime.emitToUser(row.owner_id, SOCKET_EVENTS.task, toTaskEntry(row));
  }
}
