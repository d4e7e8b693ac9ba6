import type { FastifyBaseLogger } from 'fastify';

const EVERY_MS = 60 * 60_000;
/** Revoked sessions and used challenges are kept this long for the record, then dropped. */
const KEEP_MS = 7 * 86_400_000;

export interface HousekeepingTask {
  name: string;
  /** Deletes what is older than the given time (ISO). */
  run: (before: string) => Promise<void>;
}

/**
 * Hourly clean-up of expired sign-in state (refresh tokens, challenges). Each task is
 * idempotent, so several server processes running it at once is harmless.
 */
export function startHousekeeping(tasks: HousekeepingTask[], log: FastifyBaseLogger): () => void {
  const runAll = async () => {
    const before = new Date(Date.now() - KEEP_MS).toISOString();
    for (const task of tasks) {
      try {
        await task.run(before);
      } catch (error) {
        log.error({ err: error, task: task.name }, 'housekeeping task failed');
      }
    }
  };
  const timer = setInterval(() => void runAll(), EVERY_MS);
  timer.unref();
  return () => clearInterval(timer);
}
