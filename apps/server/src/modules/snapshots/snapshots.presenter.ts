import type { Restore, SnapshotBackupType, SnapshotJobStatus, SnapshotPlan, SnapshotRun, SnapshotScheduleStatus, SnapshotTrigger } from '@bogwan/contracts';
import type { NodeRow } from '../files/ports.js';
import type { ListedRestore, ListedRun } from './jobs.repo.js';
import type { PlanRow, ScheduleRow } from './plans.repo.js';
import { parseDays } from './schedule-clock.js';
import { locationOf } from './vault-location.js';

/** A run as the API shows it; progress only while it runs. */
export function toSnapshotRun(row: ListedRun): SnapshotRun {
  return {
    _id: row.id,
    planId: row.plan_id,
    planName: row.plan_name,
    status: row.status as SnapshotJobStatus,
    trigger: row.trigger as SnapshotTrigger,
    backupType: row.backup_type as SnapshotBackupType,
    progress: row.status === 'running' ? (row.progress ?? null) : null,
    files: row.files,
    size: row.size,
    bytesAdded: row.bytes_added,
    snapshotId: row.vault_snapshot_id,
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}

/** A plan as the API shows it: never the password, sealed or not. */
export function toSnapshotPlan(plan: PlanRow, schedules: ScheduleRow[], roots: NodeRow[], lastRun: ListedRun | undefined): SnapshotPlan {
  const chosen = JSON.parse(plan.target_roots) as string[];
  const byId = new Map(roots.map((r) => [r.id, r]));
  return {
    _id: plan.id,
    name: plan.name,
    backupType: plan.backup_type as SnapshotBackupType,
    target: {
      all: plan.target_all === 1,
      roots: plan.target_all === 1 ? [] : chosen.flatMap((id) => (byId.has(id) ? [{ _id: id, name: byId.get(id)!.name }] : [])),
    },
    location: locationOf(plan),
    schedules: schedules
      .filter((s) => s.plan_id === plan.id)
      .map((s) => ({ _id: s.id, days: parseDays(s.days), time: s.time, status: s.status as SnapshotScheduleStatus })),
    lastRun: lastRun ? toSnapshotRun(lastRun) : null,
    createdAt: plan.created_at,
    updatedAt: plan.updated_at,
  };
}

export function toRestore(row: ListedRestore): Restore {
  return {
    _id: row.id,
    runId: row.run_id,
    planName: row.plan_name,
    snapshotTime: row.run_started_at,
    items: JSON.parse(row.items) as string[],
    target: row.target_kind === 'folder' && row.target_path ? { kind: 'folder', path: row.target_path } : { kind: 'original' },
    onConflict: row.on_conflict === 'replace' ? 'replace' : 'keep-both',
    status: row.status as SnapshotJobStatus,
    progress: row.status === 'running' ? (row.progress ?? null) : null,
    files: row.files,
    size: row.size,
    failed: row.failed,
    error: row.error,
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  };
}
