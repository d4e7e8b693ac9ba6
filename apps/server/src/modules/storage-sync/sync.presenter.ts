import type { Backend, Sync, SyncMode, SyncStatus, VolumeList } from '@bogwan/contracts';
import { usageBreakdownOf } from '../files/files.presenter.js';
import type { NodeRow } from '../files/ports.js';
import type { SyncRow } from './sync.repo.js';

/** Root folders whose name holds this are hidden (the spec's deleted roots). */
const HIDDEN_MARK = '_deleted_';

export function toSync(row: SyncRow): Sync {
  return {
    _id: row.id,
    taskId: row.task_id,
    path: row.path,
    mode: row.mode as SyncMode,
    source: row.source as Backend,
    target: row.target as Backend,
    targetName: row.target_name,
    status: row.status as SyncStatus,
    bytesTotal: row.bytes_total,
    bytesDone: row.bytes_done,
    error: row.error,
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  };
}

/**
 * The volume table: live roots by name without hidden ones; usage counts trashed files;
 * the usage rate is usage over the limit, the total usage rate the root's share of all
 * listed usage.
 */
export function toVolumeList(roots: NodeRow[], syncing: Set<string>, cloudConfigured: boolean): VolumeList {
  const shown = roots.filter((r) => !r.name.includes(HIDDEN_MARK)).sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
  const used = shown.reduce((sum, r) => sum + r.usage_bytes, 0);
  return {
    used,
    cloudConfigured,
    items: shown.map((r) => ({
      _id: r.id,
      name: r.name,
      path: `/${r.name}`,
      backend: r.backend as Backend,
      volume: r.volume_limit,
      usage: r.usage_bytes,
      breakdown: usageBreakdownOf(r),
      available: r.volume_limit === null ? null : Math.max(0, r.volume_limit - r.usage_bytes),
      usageRate: r.volume_limit === null ? null : r.volume_limit === 0 ? (r.usage_bytes > 0 ? 1 : 0) : r.usage_bytes / r.volume_limit,
      totalUsageRate: used === 0 ? 0 : r.usage_bytes / used,
      syncing: syncing.has(r.id),
    })),
  };
}
