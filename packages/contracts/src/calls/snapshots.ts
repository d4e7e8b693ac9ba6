import { z } from 'zod';
import { MAX_SNAPSHOT_SCHEDULES } from '../limits.js';
import { isValidFileName } from '../paths.js';

// Snapshots (backups of the live store into a repository of the backup engine) and
// restores. Administrators only. Every error is a message key.

export const SNAPSHOT_BACKUP_TYPES = ['full', 'incremental'] as const;
export type SnapshotBackupType = (typeof SNAPSHOT_BACKUP_TYPES)[number];

export const SNAPSHOT_SCHEDULE_STATUSES = ['active', 'paused'] as const;
export type SnapshotScheduleStatus = (typeof SNAPSHOT_SCHEDULE_STATUSES)[number];

/** States of a snapshot run and of a restore: running, then completed, failure or canceled. */
export const SNAPSHOT_JOB_STATUSES = ['running', 'completed', 'failure', 'canceled'] as const;
export type SnapshotJobStatus = (typeof SNAPSHOT_JOB_STATUSES)[number];

export const SNAPSHOT_TRIGGERS = ['manual', 'schedule'] as const;
export type SnapshotTrigger = (typeof SNAPSHOT_TRIGGERS)[number];

/** Days of the week as JavaScript numbers them: 0 Sunday … 6 Saturday. */
export const WEEK_DAYS = [0, 1, 2, 3, 4, 5, 6] as const;

export const SNAPSHOT_NAME_MAX_LENGTH = 100;
export const SNAPSHOT_PASSWORD_MIN_LENGTH = 8;
export const SNAPSHOT_PASSWORD_MAX_LENGTH = 128;
/** Name of the record each snapshot carries about the store (owners, content hashes, folders). */
export const SNAPSHOT_CATALOG_NAME = '.bogwan-catalog.json';

const TIME_RULE = /^([01]\d|2[0-3]):[0-5]\d$/;

export const snapshotScheduleInputSchema = z.object({
  /** Kept when an existing schedule is edited. */
  _id: z.string().max(64).optional(),
  days: z
    .array(z.number().int().min(0).max(6), { error: 'snapshot_schedule_invalid' })
    .min(1, { error: 'snapshot_schedule_invalid' })
    .max(7, { error: 'snapshot_schedule_invalid' })
    .refine((days) => new Set(days).size === days.length, { error: 'snapshot_schedule_invalid' }),
  time: z.string({ error: 'snapshot_schedule_invalid' }).regex(TIME_RULE, { error: 'snapshot_schedule_invalid' }),
  status: z.enum(SNAPSHOT_SCHEDULE_STATUSES).default('active'),
});
export type SnapshotScheduleInput = z.input<typeof snapshotScheduleInputSchema>;

export const snapshotSchedulesSchema = z.array(snapshotScheduleInputSchema).max(MAX_SNAPSHOT_SCHEDULES, { error: 'snapshot_schedule_limit' });

/** What a plan backs up: every root folder (also those added later) or the chosen ones. */
export const snapshotTargetSchema = z.object({
  all: z.boolean(),
  /** Root folder ids; ignored when `all`. */
  roots: z.array(z.string().min(1).max(64)).max(1000).default([]),
});

/**
 * Where the repository lives: a directory on the server (absolute path) or a bucket of
 * the S3-compatible endpoint the server is configured with, under a prefix.
 */
export const snapshotLocationSchema = z.discriminatedUnion('kind', [
  z.object({
    kind: z.literal('local'),
    path: z
      .string()
      .max(1000)
      .refine((p) => p.startsWith('/') && !p.split('/').some((s) => s === '..' || s === '.') && !p.includes('\0'), {
        error: 'snapshot_location_invalid',
      }),
  }),
  z.object({
    kind: z.literal('s3'),
    bucket: z.string().regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: 'snapshot_location_invalid' }),
    prefix: z
      .string()
      .max(500)
      .regex(/^[A-Za-z0-9._/-]*$/, { error: 'snapshot_location_invalid' })
      .default(''),
  }),
]);
export type SnapshotLocation = z.infer<typeof snapshotLocationSchema>;

const planName = z
  .string({ error: 'snapshot_name_required' })
  .trim()
  .min(1, { error: 'snapshot_name_required' })
  .max(SNAPSHOT_NAME_MAX_LENGTH, { error: 'snapshot_name_required' });

export const snapshotPlanCreateSchema = z.object({
  name: planName,
  backupType: z.enum(SNAPSHOT_BACKUP_TYPES),
  target: snapshotTargetSchema,
  location: snapshotLocationSchema,
  password: z
    .string({ error: 'snapshot_password_rule' })
    .min(SNAPSHOT_PASSWORD_MIN_LENGTH, { error: 'snapshot_password_rule' })
    .max(SNAPSHOT_PASSWORD_MAX_LENGTH, { error: 'snapshot_password_rule' }),
  schedules: snapshotSchedulesSchema.default([]),
});
export type SnapshotPlanCreate = z.input<typeof snapshotPlanCreateSchema>;

/** Location and password are fixed when the repository is created; the rest can change. */
export const snapshotPlanUpdateSchema = z.object({
  name: planName,
  backupType: z.enum(SNAPSHOT_BACKUP_TYPES),
  target: snapshotTargetSchema,
  schedules: snapshotSchedulesSchema,
});
export type SnapshotPlanUpdate = z.input<typeof snapshotPlanUpdateSchema>;

export const snapshotScheduleStatusSchema = z.object({ status: z.enum(SNAPSHOT_SCHEDULE_STATUSES) });

export const snapshotScheduleSchema = z.object({
  _id: z.string(),
  days: z.array(z.number().int()),
  time: z.string(),
  status: z.enum(SNAPSHOT_SCHEDULE_STATUSES),
});
export type SnapshotSchedule = z.infer<typeof snapshotScheduleSchema>;

export const snapshotRunSchema = z.object({
  _id: z.string(),
  planId: z.string(),
  planName: z.string(),
  status: z.enum(SNAPSHOT_JOB_STATUSES),
  trigger: z.enum(SNAPSHOT_TRIGGERS),
  backupType: z.enum(SNAPSHOT_BACKUP_TYPES),
  /** 0–100 while running (from the task), else null. */
  progress: z.number().nullable(),
  files: z.number(),
  /** Bytes of the files the snapshot holds. */
  size: z.number(),
  /** Bytes this run added to the repository (after deduplication and compression). */
  bytesAdded: z.number(),
  /** The backup engine's snapshot id (for the command-line tool), once completed. */
  snapshotId: z.string().nullable(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type SnapshotRun = z.infer<typeof snapshotRunSchema>;

export const snapshotPlanSchema = z.object({
  _id: z.string(),
  name: z.string(),
  backupType: z.enum(SNAPSHOT_BACKUP_TYPES),
  target: z.object({
    all: z.boolean(),
    /** Chosen root folders that still exist, with their current names. */
    roots: z.array(z.object({ _id: z.string(), name: z.string() })),
  }),
  location: z.union([z.object({ kind: z.literal('local'), path: z.string() }), z.object({ kind: z.literal('s3'), bucket: z.string(), prefix: z.string() })]),
  schedules: z.array(snapshotScheduleSchema),
  lastRun: snapshotRunSchema.nullable(),
  createdAt: z.string(),
  updatedAt: z.string(),
});
export type SnapshotPlan = z.infer<typeof snapshotPlanSchema>;

export const snapshotPlanListSchema = z.object({ items: z.array(snapshotPlanSchema) });
export const snapshotIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

export const snapshotRunListQuerySchema = z.object({
  planId: z.string().max(64).optional(),
  /** Only completed runs (what a restore can use). */
  completed: z
    .enum(['true', 'false'])
    .transform((v) => v === 'true')
    .optional(),
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const snapshotRunListSchema = z.object({ items: z.array(snapshotRunSchema), total: z.number().int() });

/** A path inside a snapshot: root folder name first, `/`-separated, no leading slash ('' is the top). */
const snapshotPath = z
  .string()
  .max(4096)
  .refine((p) => p === '' || p.split('/').every(isValidFileName), { error: 'invalid_path' });

export const snapshotItemsQuerySchema = z.object({ path: snapshotPath.default('') });

/** One entry of a snapshot, as the restore wizard browses it. */
export const snapshotItemSchema = z.object({
  path: z.string(),
  name: z.string(),
  folder: z.boolean(),
  size: z.number(),
  mtime: z.string(),
  /** The owner's email when known. */
  owner: z.string().nullable(),
});
export type SnapshotItem = z.infer<typeof snapshotItemSchema>;
export const snapshotItemListSchema = z.object({ path: z.string(), items: z.array(snapshotItemSchema) });

export const restoreTargetSchema = z.discriminatedUnion('kind', [
  z.object({ kind: z.literal('original') }),
  z.object({
    kind: z.literal('folder'),
    path: z
      .string()
      .max(4096)
      .refine((p) => p.startsWith('/') && p !== '/', { error: 'invalid_path' }),
  }),
]);
export type RestoreTarget = z.infer<typeof restoreTargetSchema>;

/**
 * What a restored file does when a live file with other content holds its name: `keep-both`
 * adds it as `name (1).ext`; `replace` gives the live file the snapshot's content and keeps
 * what it held as a version of it.
 */
export const RESTORE_CONFLICTS = ['keep-both', 'replace'] as const;
export type RestoreConflict = (typeof RESTORE_CONFLICTS)[number];

export const restoreCreateSchema = z.object({
  runId: z.string().min(1).max(64),
  /** Snapshot paths to restore (files or folders with everything under them). */
  items: z
    .array(snapshotPath.refine((p) => p !== '', { error: 'invalid_path' }))
    .min(1)
    .max(1000),
  target: restoreTargetSchema,
  onConflict: z.enum(RESTORE_CONFLICTS).default('keep-both'),
});
export type RestoreCreate = z.input<typeof restoreCreateSchema>;

export const restoreSchema = z.object({
  _id: z.string(),
  runId: z.string(),
  planName: z.string(),
  snapshotTime: z.string(),
  items: z.array(z.string()),
  target: restoreTargetSchema,
  onConflict: z.enum(RESTORE_CONFLICTS),
  status: z.enum(SNAPSHOT_JOB_STATUSES),
  progress: z.number().nullable(),
  /** Files put back (new or already there). */
  files: z.number(),
  size: z.number(),
  /** Files that could not be restored (damaged data, no room). */
  failed: z.number(),
  error: z.string().nullable(),
  startedAt: z.string(),
  finishedAt: z.string().nullable(),
});
export type Restore = z.infer<typeof restoreSchema>;

export const restoreListQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const restoreListSchema = z.object({ items: z.array(restoreSchema), total: z.number().int() });
