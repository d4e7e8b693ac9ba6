import { extensionOf } from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import type { TasksService } from '../tasks/tasks.service.js';

/** What the upload engine tells the task panel; progress never blocks or fails an upload. */
export interface UploadProgress {
  chunkStored(sessionId: string, ownerId: string, file: { name: string; size: number; folder: string }, received: number, total: number): Promise<void>;
  completed(sessionId: string, folder: string): Promise<void>;
  failed(sessionId: string): Promise<void>;
}

/**
 * Upload progress as tasks of type `upload` (one per upload session, same id), so the
 * owner's task panel follows server-side progress and hears when the file is complete.
 */
export class UploadTasks implements UploadProgress {
  constructor(
    private readonly tasks: () => TasksService,
    private readonly log: FastifyBaseLogger,
  ) {}

  async chunkStored(sessionId: string, ownerId: string, file: { name: string; size: number; folder: string }, received: number, total: number) {
    // Below 100 until the file is really in the tree.
    const progress = Math.min(99, Math.floor((received / total) * 100));
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
    await this.safely(() => this.tasks().update(sessionId, { progress: 100, status: 'completed', clientPath: folder }));
  }

  async failed(sessionId: string) {
    await this.safely(() => this.tasks().update(sessionId, { status: 'failure' }));
  }

  private async safely(work: () => Promise<unknown>): Promise<void> {
    try {
      await work();
    } catch (error) {
      this.log.warn({ err: error }, 'upload task update failed');
    }
  }
}
