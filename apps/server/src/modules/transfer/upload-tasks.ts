import { extensionOf } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { TasksService } from '../tasks/tasks.service.js';

const PROGRESS_INTERVAL_MS = 1000;
/** Uploads abandoned mid-way leave an entry; the oldest go past this many. */
const MAX_TRACKED = 10_000;

/** What the upload engine tells the task panel; progress never blocks or fails an upload. */
export interface UploadProgress {
  chunkStored(sessionId: string, ownerId: string, file: { name: string; size: number; folder: string }, received: number, total: number): Promise<void>;
  completed(sessionId: string, folder: string): Promise<void>;
  failed(sessionId: string): Promise<void>;
  /** The user stopped it; a later chunk (a retry) makes it run again. */
  canceled(sessionId: string): Promise<void>;
}

/**
 * Upload progress as tasks of type `upload` (one per upload session, same id), so the
 * owner's task panel follows server-side progress and hears when the file is complete.
 */
export class UploadTasks implements UploadProgress {
  /** When this process last wrote each upload's progress. */
  private readonly lastWrite = new Map<string, number>();

  constructor(
    private readonly tasks: () => TasksService,
    private readonly log: FastifyBaseLogger,
    private readonly now: () => number = Date.now,
  ) {}

  async chunkStored(sessionId: string, ownerId: string, file: { name: string; size: number; folder: string }, received: number, total: number) {
    // Below 100 until the file is really in the tree.
    const progress = Math.min(99, Math.floor((received / total) * 100));
    // At most one progress write per second per upload (each is a committed database
    // write); the first chunk always writes (it creates the task), and so does the last.
    const last = this.lastWrite.get(sessionId);
    const now = this.now();
    if (last !== undefined && now - last < PROGRESS_INTERVAL_MS && received < total) return;
    this.lastWrite.set(sessionId, now);
    if (this.lastWrite.size > MAX_TRACKED) this.lastWrite.delete(this.lastWrite.keys().next().value!);
    await this.safely(async () => {
      const updated = await this.tasks().update(sessionId, { progress, status: 'running' });
      if (updated) return;
      try {
        await this.tasks().start({
          id: sessionId,
          type: 'upload',
          ownerId,
          name: file.name,
          size: file.size,
          extension: extensionOf(file.name),
          clientPath: file.folder,
        });
      } catch {
        // A concurrent chunk created it first.
      }
      await this.tasks().update(sessionId, { progress, status: 'running' });
    });
  }

  async completed(sessionId: string, folder: string) {
    this.lastWrite.delete(sessionId);
    await this.safely(() => this.tasks().update(sessionId, { progress: 100, status: 'completed', clientPath: folder }));
  }

  async failed(sessionId: string) {
    this.lastWrite.delete(sessionId);
    await this.safely(() => this.tasks().update(sessionId, { status: 'failure' }));
  }

  async canceled(sessionId: string) {
    this.lastWrite.delete(sessionId);
    // Quiet: the user who just stopped it needs no notification saying so.
    await this.safely(() => this.tasks().update(sessionId, { status: 'canceled' }, { quiet: true }));
  }

  private async safely(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.log.warn({ err: error }, 'upload task update failed');
    }
  }
}
