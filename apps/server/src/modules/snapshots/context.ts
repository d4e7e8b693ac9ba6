import { LockLostError, UnreachableError } from '@bogwan/vault';
import type { FastifyBaseLogger } from 'fastify';
import type { Config } from '../../config.js';
import type { BlobStores } from '../../storage/blob-stores.js';
import { type AuditActor, SYSTEM_ACTOR } from '../audit/audit-context.js';
import type { AuditRecorder, AuditTarget } from '../audit/audit.recorder.js';
import type { FileAccess, FileTree } from '../files/ports.js';
import type { TasksService } from '../tasks/tasks.service.js';
import type { WebhookEmitter } from '../webhooks/ports.js';
import type { JobsRepo } from './jobs.repo.js';
import type { OperationLock } from './operation-lock.js';
import type { PasswordBox } from './password-box.js';
import type { PlansRepo } from './plans.repo.js';
import type { RestoredItems } from './restored-items.js';

/** What the snapshot and restore services share. Other modules' parts are read lazily (wired after this one). */
export interface SnapshotContext {
  config: Config;
  plans: PlansRepo;
  jobs: JobsRepo;
  lock: OperationLock;
  box: PasswordBox;
  audit: AuditRecorder;
  log: FastifyBaseLogger;
  restored: RestoredItems;
  background: BackgroundJobs;
  tasks: () => TasksService;
  tree: () => FileTree;
  access: () => FileAccess;
  stores: () => BlobStores;
  /** Outgoing webhooks, told of every finished run (`snapshot.finished`). */
  hooks: () => WebhookEmitter | undefined;
}

/** The message key an error stands for, for runs and restores that fail in the background. */
export function errorKeyOf(error: unknown, fallback: string): string {
  if (error instanceof UnreachableError) return 'snapshot_location_unreachable';
  if (error instanceof LockLostError) return 'snapshot_lock_lost';
  const key = (error as { messageKey?: unknown }).messageKey;
  return typeof key === 'string' ? key : fallback;
}

/** True for the error an AbortSignal raises. */
export function isAbort(error: unknown, signal: AbortSignal): boolean {
  return signal.aborted || (error as Error)?.name === 'AbortError';
}

/** Background work of this process, so closing the server stops it and waits for it. */
export class BackgroundJobs {
  private readonly running = new Map<Promise<void>, AbortController>();

  track(work: Promise<void>, controller: AbortController): void {
    const done = work.finally(() => this.running.delete(done));
    this.running.set(done, controller);
  }

  /** Cancels every job and waits for each to record how it ended. */
  async stopAll(): Promise<void> {
    for (const controller of this.running.values()) controller.abort();
    await Promise.allSettled([...this.running.keys()]);
  }
}

/** The audit actor of a run: the account that started it, else the server (a schedule). */
export function runActor(accountId: string | null): AuditActor {
  return accountId ? { kind: 'account', id: accountId, accountId } : SYSTEM_ACTOR;
}

/** The audit target of a snapshot plan. */
export function planTarget(plan: { id: string; name: string }): AuditTarget {
  return { kind: 'snapshot_plan', id: plan.id, label: plan.name };
}
