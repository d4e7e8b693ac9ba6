import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { describe, expect, it, vi } from 'vitest';
import type { LicenceService } from '../licence/licence.service.js';
import type { UserRow } from '../users/users.repo.js';
import type { DashboardRepo } from './dashboard.repo.js';
import { DashboardService, diskFigures } from './dashboard.service.js';
import type { SnapshotSummary } from './snapshot-summary.js';

const repo = {
  roots: async () => [],
  accounts: async () => [],
  transfersByHour: async () => [],
  activeTasks: async () => ({ rows: [], total: 0 }),
} as unknown as DashboardRepo;

const licence = {
  read: async () => ({ trial: false, type: 'STANDARD', user: 50, seatsUsed: 2, expiresAt: '2026-04-01T00:00:00.000Z' }),
} as unknown as LicenceService;

function service(snapshots: SnapshotSummary | undefined, serverPath: () => Promise<string> = () => Promise.reject(new Error('storage settings unreadable'))) {
  const log = { error: vi.fn() };
  const dashboard = new DashboardService({
    repo,
    licence,
    serverPath,
    snapshots: () => snapshots,
    log: log as never,
  });
  return { dashboard, log };
}

const caller = { role_level: 3 } as UserRow;
const now = new Date('2026-03-01T00:00:00.000Z');

describe('dashboard service', () => {
  it('reports no snapshot while the snapshots module has registered no summary', async () => {
    expect((await service(undefined).dashboard.overview(caller, 'UTC', now)).snapshot).toBeNull();
  });

  it('passes the latest snapshot run through', async () => {
    const run = { name: 'nightly', status: 'completed', startedAt: '2026-02-28T01:00:00Z', finishedAt: '2026-02-28T01:05:00Z', size: 42 };
    expect((await service({ lastRun: async () => run }).dashboard.overview(caller, 'UTC', now)).snapshot).toEqual(run);
  });

  it('shows the rest of the dashboard when the snapshot summary fails, and logs it', async () => {
    const { dashboard, log } = service({ lastRun: () => Promise.reject(new Error('repository locked')) });
    const result = await dashboard.overview(caller, 'UTC', now);
    expect(result.snapshot).toBeNull();
    expect(log.error).toHaveBeenCalledOnce();
    expect(result.licence).toEqual({ trial: false, type: 'STANDARD', expiresAt: '2026-04-01T00:00:00.000Z', daysLeft: 31, seats: 50, seatsUsed: 2 });
    // The disk under a path that cannot be read is unknown, not an error.
    expect(result.storage.backends[0]).toMatchObject({ backend: 'server', disk: null, free: null });
  });

  it('measures a server path not made yet on the file system it will be made on', async () => {
    const dir = fs.mkdtempSync(path.join(os.tmpdir(), 'bogwan-disk-'));
    try {
      const { dashboard } = service(undefined, async () => path.join(dir, 'not', 'made', 'yet'));
      const server = (await dashboard.overview(caller, 'UTC', now)).storage.backends[0]!;
      const stats = fs.statfsSync(dir);
      expect(server.disk?.total).toBe(stats.blocks * stats.bsize);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });

  it('reads the disk as df does: used is everything on it, not only our files', () => {
    // 252 GB, 73 GB available: 71 % full whatever Bogwan stores on it.
    const gb = 1e9 / 4096;
    const disk = diskFigures({ blocks: 252 * gb, bavail: 73 * gb, bsize: 4096 });
    expect(disk).toEqual({ total: 252e9, used: 179e9, free: 73e9 });
    expect(Math.round((disk.used / disk.total) * 100)).toBe(71);
  });
});
