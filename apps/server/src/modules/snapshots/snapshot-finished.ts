import type { SnapshotContext } from './context.js';
import type { RunRow } from './jobs.repo.js';

/**
 * Tells outgoing webhooks that a run ended (`snapshot.finished`), whatever the outcome:
 * completed, failure (with its message key) or canceled. Sizes are bytes. The run is the
 * event: announced again (the process that finds a run interrupted, and the run's own
 * process if it was only slow), it is still delivered once.
 */
export function announceFinishedRun(ctx: SnapshotContext, plan: { id: string; name: string }, run: RunRow): void {
  ctx.hooks()?.emit(
    'snapshot.finished',
    {
      planId: plan.id,
      planName: plan.name,
      runId: run.id,
      status: run.status,
      trigger: run.trigger,
      backupType: run.backup_type,
      snapshotId: run.vault_snapshot_id,
      files: Number(run.files),
      size: Number(run.size),
      bytesAdded: Number(run.bytes_added),
      error: run.error,
      startedAt: run.started_at,
      finishedAt: run.finished_at,
    },
    `snapshot.finished:${run.id}`,
  );
}
