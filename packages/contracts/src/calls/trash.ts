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
