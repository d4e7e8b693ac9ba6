import { z } from 'zod';
import { fileEntrySchema, pathField, treeNodeSchema } from './files.js';

// Calls of the file tree beyond those in files.ts: volume limits, recent and starred, star.

/** How many entries Recent and Starred answer at most. */
export const MARKED_LIST_MAX = 100;

/** `PUT /api/file/root/volume`: a root folder's volume limit in bytes; null removes it. */
export const rootVolumeRequestSchema = z.object({
  path: pathField,
  volume: z.number().int().min(0).max(Number.MAX_SAFE_INTEGER).nullable(),
});

/** `GET /api/file/recent` and `GET /api/file/starred`. */
export const markedQuerySchema = z.object({
  limit: z.coerce.number().int().min(1).max(MARKED_LIST_MAX).default(50),
});
export const markedResponseSchema = z.object({ items: z.array(fileEntrySchema) });
export type MarkedResponse = z.infer<typeof markedResponseSchema>;

/** `POST /api/file/trash`: the trash ids of what was moved there (for an undo through restore). */
export const trashResponseSchema = z.object({ ids: z.array(z.string()) });

/** `GET /api/file/tree`: the root folders, expanded along the asked path. */
export const treeResponseSchema = z.array(treeNodeSchema);
