import fs from 'node:fs';
import path from 'node:path';
import {
  DASHBOARD_TASKS_MAX,
  DASHBOARD_TRANSFER_DAYS,
  type Dashboard,
  type DashboardBackend,
  type DashboardDisk,
  type DashboardSnapshot,
  ROLES,
  STORAGE_BACKENDS,
  type StorageBackend,
  TASK_STATUSES,
  TASK_TYPES,
  type TaskStatus,
  type TaskType,
  USER_STATUSES,
} from '@bogwan/contracts';
import type { FastifyBaseLogger } from 'fastify';
import { usageBreakdownOf } from '../files/files.presenter.js';
import type { LicenceService } from '../licence/licence.service.js';
import type { UserRow } from '../users/users.repo.js';
import type { DashboardRepo, RootFigures } from './dashboard.repo.js';
import type { SnapshotSummary } from './snapshot-summary.js';
import { knownTimeZone, transferDays } from './transfer-days.js';

const DAY_MS = 86_400_000;
/** Names of roots that were deleted and renamed aside; the spec hides them. */
const DELETED_MARK = '_deleted_';

export interface DashboardDeps {
  repo: DashboardRepo;
  licence: LicenceService;
  /** Where the server backend keeps its blobs (for the disk's size and free space). */
  serverPath: () => Promise<string>;
  /** The snapshots module's summary, when it has registered one. */
  snapshots: () => SnapshotSummary | undefined;
  log: FastifyBaseLogger;
}

/** The administrators' overview: storage, accounts, transfers, tasks, backups and licence in one answer. */
export class DashboardService {
  constructor(private readonly deps: DashboardDeps) {}

  async overview(caller: UserRow, tz: string | undefined, now = new Date()): Promise<Dashboard> {
    const timeZone = knownTimeZone(tz);
    const { repo } = this.deps;
    // A day more than shown, so the oldest local day is complete in any zone.
    const since = new Date(now.getTime() - (DASHBOARD_TRANSFER_DAYS + 1) * DAY_MS).toISOString();
    const [roots, accounts, hours, tasks, snapshot, licence, disk] = await Promise.all([
      repo.roots(),
      repo.accounts(),
      repo.transfersByHour(since),
      repo.activeTasks(DASHBOARD_TASKS_MAX),
      this.lastSnapshot(),
      this.deps.licence.read(caller),
      this.disk(),
    ]);

    const byStatus = Object.fromEntries(USER_STATUSES.map((s) => [s, 0])) as Dashboard['accounts']['byStatus'];
    const byRole = Object.fromEntries(ROLES.map((r) => [r, 0])) as Dashboard['accounts']['byRole'];
    let total = 0;
    for (const { status, role, n } of accounts) {
      if (status in byStatus) byStatus[status as keyof typeof byStatus] += n;
      if (role in byRole) byRole[role as keyof typeof byRole] += n;
      total += n;
    }

    const expiresAt = licence.expiresAt ?? now.toISOString();
    return {
      generatedAt: now.toISOString(),
      storage: {
        backends: STORAGE_BACKENDS.map((backend) => backendFigures(backend, roots, backend === 'server' ? disk : null)),
        roots: roots
          .filter((r) => r.trash_key === '' && !r.name.includes(DELETED_MARK))
          .map((r) => ({
            name: r.name,
            path: `/${r.name}`,
            backend: asBackend(r.backend),
            usage: Number(r.usage_bytes),
            volume: r.volume_limit === null ? null : Number(r.volume_limit),
            breakdown: usageBreakdownOf(r),
          })),
      },
      accounts: { total, byStatus, byRole },
      transfers: { timeZone, days: transferDays(hours, now, DASHBOARD_TRANSFER_DAYS, timeZone) },
      tasks: {
        total: tasks.total,
        running: tasks.rows.map((task) => ({
          _id: task.id,
          type: (TASK_TYPES as readonly string[]).includes(task.type) ? (task.type as TaskType) : 'sync',
          name: task.name,
          status: (TASK_STATUSES as readonly string[]).includes(task.status) ? (task.status as TaskStatus) : 'running',
          progress: task.progress,
          owner: task.owner_name ?? task.owner_email ?? '',
          updatedAt: task.updated_at,
        })),
      },
      snapshot,
      licence: {
        trial: licence.trial,
        type: licence.type,
        expiresAt,
        daysLeft: Math.max(0, Math.floor((Date.parse(expiresAt) - now.getTime()) / DAY_MS)),
        seats: licence.user,
        seatsUsed: licence.seatsUsed,
      },
    };
  }

  /** The latest snapshot run; null when there is none, or when the summary fails (logged). */
  private async lastSnapshot(): Promise<DashboardSnapshot | null> {
    const summary = this.deps.snapshots();
    if (!summary) return null;
    try {
      return await summary.lastRun();
    } catch (error) {
      this.deps.log.error({ err: error }, 'dashboard: snapshot summary failed');
      return null;
    }
  }

  /**
   * The file system under the server backend; null when it cannot be read. A server path
   * not made yet (nothing stored there so far) is measured at its nearest existing parent,
   * the file system it will be made on.
   */
  private async disk(): Promise<DashboardDisk | null> {
    let at: string;
    try {
      at = path.resolve(await this.deps.serverPath());
    } catch {
      return null;
    }
    for (;;) {
      try {
        return diskFigures(await fs.promises.statfs(at));
      } catch (error) {
        const parent = path.dirname(at);
        if ((error as NodeJS.ErrnoException).code !== 'ENOENT' || parent === at) return null;
        at = parent;
      }
    }
  }
}

/**
 * Size, use and free space of a file system as `df` shows them: free is what an ordinary
 * process may still write (`bavail`), used is the rest of the size, whoever wrote it. (The
 * gauge once showed Bogwan's own bytes against the disk's size: 0.0 % on a disk 71 % full.)
 */
export function diskFigures(stats: Pick<fs.StatsFs, 'blocks' | 'bavail' | 'bsize'>): DashboardDisk {
  const total = stats.blocks * stats.bsize;
  const free = Math.min(total, stats.bavail * stats.bsize);
  return { total, used: total - free, free };
}

function asBackend(value: string): StorageBackend {
  return value === 'cloud' ? 'cloud' : 'server';
}

/**
 * One backend's figures: used counts every root (trashed ones too); the limit is the sum
 * of its live roots' limits, or null when one is unlimited; free is what the limits
 * leave, capped by the disk for the server backend.
 */
function backendFigures(backend: StorageBackend, roots: RootFigures[], disk: DashboardDisk | null): DashboardBackend {
  const own = roots.filter((r) => asBackend(r.backend) === backend);
  const live = own.filter((r) => r.trash_key === '');
  const used = own.reduce((sum, r) => sum + Number(r.usage_bytes), 0);
  const limit = live.length > 0 && live.every((r) => r.volume_limit !== null) ? live.reduce((sum, r) => sum + Number(r.volume_limit), 0) : null;
  let free: number | null = limit === null ? null : Math.max(0, limit - used);
  if (disk) free = free === null ? disk.free : Math.min(free, disk.free);
  return { backend, used, limit, free, disk, roots: live.filter((r) => !r.name.includes(DELETED_MARK)).length };
}
