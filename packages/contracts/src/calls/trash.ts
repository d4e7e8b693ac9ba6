import { z } from 'zod';

/** One item in the trash, with who trashed it, when, and where it came from. */
export const trashEntrySchema = z.object({
  _id: z.string(),
  name: z.string(),
  folder: z.boolean(),
  size: z.number(),
  /** Where the item lived; null when its folder no longer exists. */
  path: z.string().nullable(),
  trashedAt: z.string(),
  trashedBy: z.object({ _id: z.string(), name: z.string(), email: z.string() }).nullable(),
});
export type TrashEntry = z.infer<typeof trashEntrySchema>;

export const trashListQuerySchema = z.object({
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
});
export const trashListResponseSchema = z.object({ items: z.array(trashEntrySchema), total: z.number().int() });
export type TrashListResponse = z.infer<typeof trashListResponseSchema>;

export const trashRestoreRequestSchema = z.object({ ids: z.array(z.string().min(1)).min(1).max(1000) });
export const trashIdParamsSchema = z.object({ id: z.string().min(1) });
/** How many items a restore or a purge handled. */
export const trashCountResponseSchema = z.object({ count: z.number().int() });

/** Longest trash retention an administrator may set, in days. */
export const TRASH_RETENTION_MAX_DAYS = 3650;

/**
 * `GET` / `PUT /api/trash/retention`: trashed items are deleted for good this many days
 * after they were trashed; null (the default) keeps them until an administrator deletes them.
 */
export const trashRetentionSchema = z.object({
  days: z
    .number({ error: 'trash_retention_invalid' })
    .int({ error: 'trash_retention_invalid' })
    .min(1, { error: 'trash_retention_invalid' })
    .max(TRASH_RETENTION_MAX_DAYS, { error: 'trash_retention_invalid' })
    .nullable(),
});
export type TrashRetention = z.infer<typeof trashRetentionSchema>;
