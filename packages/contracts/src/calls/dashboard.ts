import { z } from 'zod';
import { ROLES, TASK_STATUSES, TASK_TYPES, USER_STATUSES } from '../enums.js';
import { usageBreakdownSchema } from './files.js';

/** Days the dashboard's upload and download chart covers, today included. */
export const DASHBOARD_TRANSFER_DAYS = 30;
/** Running tasks listed at most. */
export const DASHBOARD_TASKS_MAX = 20;

const IANA_ZONE = /^[A-Za-z][A-Za-z0-9_+\-/]{0,63}$/;

/**
 * `GET /api/dashboard?tz=Asia/Seoul`: the time zone whose calendar days the transfer
 * chart counts in (UTC when absent or unknown).
 */
export const dashboardQuerySchema = z.object({
  tz: z.string().regex(IANA_ZONE).optional(),
});
export type DashboardQuery = z.infer<typeof dashboardQuerySchema>;

export const STORAGE_BACKENDS = ['server', 'cloud'] as const;
export type StorageBackend = (typeof STORAGE_BACKENDS)[number];

/**
 * The file system under the server backend, as `df` sees it: `used` is total − free of the
 * whole file system (everything on the disk, not only Bogwan's files); `free` is what a
 * process may still write.
 */
export const dashboardDiskSchema = z.object({ total: z.number(), used: z.number(), free: z.number() });
export type DashboardDisk = z.infer<typeof dashboardDiskSchema>;

/** One storage backend: bytes Bogwan stores (trash included), the sum of its roots' limits, and the disk under it. */
export const dashboardBackendSchema = z.object({
  backend: z.enum(STORAGE_BACKENDS),
  /** Bytes of Bogwan's own files on this backend (its share of the disk). */
  used: z.number(),
  /** Sum of the live roots' volume limits; null when one of them is unlimited or there is none. */
  limit: z.number().nullable(),
  /** Free space where limits leave room: limit − used, or the disk's free space when unlimited; null when unknown. */
  free: z.number().nullable(),
  /** The file system holding the server backend's blobs; null for the cloud backend. */
  disk: dashboardDiskSchema.nullable(),
  /** Live root folders on this backend. */
  roots: z.number().int(),
});

/** One live root folder and its usage. */
export const dashboardRootSchema = z.object({
  name: z.string(),
  path: z.string(),
  backend: z.enum(STORAGE_BACKENDS),
  /** Bytes kept: live files, versions and trash. */
  usage: z.number(),
  volume: z.number().nullable(),
  /** The usage split into live files, versions and trash. */
  breakdown: usageBreakdownSchema,
});

export const dashboardTransferDaySchema = z.object({
  /** YYYY-MM-DD in the requested time zone. */
  date: z.string(),
  uploads: z.number().int(),
  /** Downloads only: files, zips, versions and share-link downloads (a preview is not one). */
  downloads: z.number().int(),
  /** Files opened in the in-app preview. */
  previews: z.number().int(),
});

export const dashboardTaskSchema = z.object({
  _id: z.string(),
  type: z.enum(TASK_TYPES),
  name: z.string(),
  status: z.enum(TASK_STATUSES),
  progress: z.number().nullable(),
  owner: z.string(),
  updatedAt: z.string(),
});

/** The latest snapshot run; null while the snapshot feature has none to report. */
export const dashboardSnapshotSchema = z.object({
  name: z.string(),
  status: z.string(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
  size: z.number().nullable(),
});
export type DashboardSnapshot = z.infer<typeof dashboardSnapshotSchema>;

export const dashboardLicenceSchema = z.object({
  trial: z.boolean(),
  type: z.string(),
  /** When a new key is needed. */
  expiresAt: z.string(),
  /** Whole days left before then (0 once passed). */
  daysLeft: z.number().int(),
  seats: z.number().int(),
  seatsUsed: z.number().int(),
});

export const dashboardSchema = z.object({
  generatedAt: z.string(),
  storage: z.object({ backends: z.array(dashboardBackendSchema), roots: z.array(dashboardRootSchema) }),
  accounts: z.object({
    total: z.number().int(),
    byStatus: z.record(z.enum(USER_STATUSES), z.number().int()),
    byRole: z.record(z.enum(ROLES), z.number().int()),
  }),
  transfers: z.object({ timeZone: z.string(), days: z.array(dashboardTransferDaySchema) }),
  tasks: z.object({ running: z.array(dashboardTaskSchema), total: z.number().int() }),
  snapshot: dashboardSnapshotSchema.nullable(),
  licence: dashboardLicenceSchema,
});
export type Dashboard = z.infer<typeof dashboardSchema>;
export type DashboardRoot = z.infer<typeof dashboardRootSchema>;
export type DashboardBackend = z.infer<typeof dashboardBackendSchema>;
export type DashboardTask = z.infer<typeof dashboardTaskSchema>;
export type DashboardTransferDay = z.infer<typeof dashboardTransferDaySchema>;
