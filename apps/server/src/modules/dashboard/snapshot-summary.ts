import type { DashboardSnapshot } from '@bogwan/contracts';

/**
 * The dashboard's view of backups: the latest snapshot run, or null when there is none.
 * The snapshots module provides it by decorating the app with `snapshotSummary`; the
 * dashboard module declares it needs it (the boot fails without it).
 */
export interface SnapshotSummary {
  lastRun(): Promise<DashboardSnapshot | null>;
}

declare module 'fastify' {
  interface FastifyInstance {
    /** Set by the snapshots module. */
    snapshotSummary: SnapshotSummary;
  }
}
