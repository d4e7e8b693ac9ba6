import { z } from 'zod';
import { BACKENDS, pathField, usageBreakdownSchema } from './files.js';

/** One row of the volume table: a live root folder with its limit and usage in bytes. */
export const volumeRowSchema = z.object({
  _id: z.string(),
  name: z.string(),
  path: z.string(),
  backend: z.enum(BACKENDS),
  /** The limit in bytes; null: unlimited. */
  volume: z.number().nullable(),
  /** Bytes kept: live files, versions and trash (the sum the limit applies to). */
  usage: z.number(),
  /** The usage split into live files, versions and trash. */
  breakdown: usageBreakdownSchema,
  /** Bytes left under the limit (0 when over it); null: unlimited. */
  available: z.number().nullable(),
  /** usage / volume, 0–1 or more; null: unlimited. */
  usageRate: z.number().nullable(),
  /** This root's share of the usage of all roots, 0–1. */
  totalUsageRate: z.number(),
  /** True while a sync task moves or copies its contents. */
  syncing: z.boolean(),
});
export type VolumeRow = z.infer<typeof volumeRowSchema>;

/** `GET /api/storage/volume`: every live root folder by name (names with `_deleted_` left out). */
export const volumeListSchema = z.object({
  items: z.array(volumeRowSchema),
  /** Bytes used over all the listed roots. */
  used: z.number(),
  /** Whether a cloud bucket is configured (sync to the cloud is possible). */
  cloudConfigured: z.boolean(),
});
export type VolumeList = z.infer<typeof volumeListSchema>;

export const SYNC_MODES = ['move', 'copy'] as const;
export type SyncMode = (typeof SYNC_MODES)[number];

/**
 * `POST /api/storage/sync`: move a root folder's contents to the other backend (the
 * folder switches), or copy them into a new root folder `name` on the other backend.
 */
export const syncRequestSchema = z
  .object({
    path: pathField,
    mode: z.enum(SYNC_MODES),
    /** The new root folder of a copy. */
    name: z.string().max(255).optional(),
  })
  .refine((body) => body.mode === 'move' || (body.name !== undefined && body.name.trim() !== ''), { message: 'rules_folder' });
export type SyncRequest = z.infer<typeof syncRequestSchema>;

export const SYNC_STATUSES = ['running', 'completed', 'canceled', 'failure'] as const;
export type SyncStatus = (typeof SYNC_STATUSES)[number];

/** A sync as the storage screen lists it; its progress shows in the task panel (`taskId`). */
export const syncSchema = z.object({
  _id: z.string(),
  taskId: z.string(),
  path: z.string(),
  mode: z.enum(SYNC_MODES),
  source: z.enum(BACKENDS),
  target: z.enum(BACKENDS),
  /** The copy's new root folder (copies only). */
  targetName: z.string().nullable(),
  status: z.enum(SYNC_STATUSES),
  bytesTotal: z.number(),
  bytesDone: z.number(),
  error: z.string().nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type Sync = z.infer<typeof syncSchema>;
export const syncListSchema = z.array(syncSchema);

/** `POST /api/setting/admin`: the caller's own password, to turn admin mode on. */
export const adminModeRequestSchema = z.object({ password: z.string().min(1).max(256) });
export const adminModeResponseSchema = z.object({ success: z.boolean() });
