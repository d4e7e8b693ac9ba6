import { z } from 'zod';
import { pathField } from './files.js';

/**
 * `GET /api/file/download`: one `path` (a file, or a folder as a zip), or several `paths`
 * (repeated in the query) downloaded together as one zip.
 */
export const downloadQuerySchema = z
  .object({
    path: pathField.optional(),
    paths: z.preprocess((v) => (v === undefined || Array.isArray(v) ? v : [v]), z.array(pathField).min(1).max(1000)).optional(),
  })
  .refine((q) => (q.path === undefined) !== (q.paths === undefined), { message: 'invalid_path' });
export type DownloadQuery = z.infer<typeof downloadQuerySchema>;

/** `PUT /api/setting/storage`: where the server backend keeps blobs, and the cloud bucket. */
export const storageSettingsRequestSchema = z.object({
  server: z.object({ path: z.string().min(1).max(4096) }).optional(),
  cloud: z.object({ bucket: z.string().min(3).max(63) }).optional(),
});
export const storageSettingsSchema = z.object({
  server: z.object({ path: z.string() }),
  cloud: z.object({ bucket: z.string().nullable() }),
});
export type StorageSettings = z.infer<typeof storageSettingsSchema>;
