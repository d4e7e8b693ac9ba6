import { z } from 'zod';
import { PERMISSION_TYPES } from '../enums.js';
import { CHUNK_SIZE } from '../limits.js';
import { normalizePath, splitPath } from '../paths.js';

/** A storage path checked against the path rules, in its stored form (NFC, no trailing `/`); the issue message is `invalid_path`. */
export const pathField = z
  .string({ error: 'invalid_path' })
  .superRefine((v, ctx) => {
    if (splitPath(v) === null) ctx.addIssue({ code: 'custom', message: 'invalid_path' });
  })
  .transform((v) => normalizePath(v) ?? v);

export const BACKENDS = ['server', 'cloud'] as const;
export type Backend = (typeof BACKENDS)[number];

/** One file or folder as lists show it. `_id` is the node id (the spec's inode), stable across moves. */
export const fileEntrySchema = z.object({
  _id: z.string(),
  name: z.string(),
  path: z.string(),
  folder: z.boolean(),
  size: z.number(),
  mtime: z.string(),
  lock: z.boolean(),
  starred: z.boolean(),
  owner: z.string().nullable(),
  extension: z.string(),
});
export type FileEntry = z.infer<typeof fileEntrySchema>;

export const listQuerySchema = z.object({
  path: pathField,
  skip: z.coerce.number().int().min(0).default(0),
  limit: z.coerce.number().int().min(1).max(1000).default(100),
  sort: z.enum(['name', '-name', 'size', '-size', 'mtime', '-mtime']).default('name'),
});
export const listResponseSchema = z.object({ items: z.array(fileEntrySchema), total: z.number().int() });
export type ListResponse = z.infer<typeof listResponseSchema>;

/** A folder of the tree: the spec's node (name, path, children, expanded, lock, folder). */
export interface TreeNode {
  _id: string;
  name: string;
  path: string;
  folder: true;
  lock: boolean;
  expanded: boolean;
  children: TreeNode[];
}
// Registered under an id: a recursive schema is a named component of the OpenAPI document.
export const treeNodeSchema: z.ZodType<TreeNode> = z
  .lazy(() =>
    z.object({
      _id: z.string(),
      name: z.string(),
      path: z.string(),
      folder: z.literal(true),
      lock: z.boolean(),
      expanded: z.boolean(),
      children: z.array(treeNodeSchema),
    }),
  )
  .meta({ id: 'TreeNode' });
export const treeQuerySchema = z.object({ path: pathField.optional() });

export const createFolderRequestSchema = z.object({
  name: z.string({ error: 'rules_folder' }),
  path: pathField,
  /** Root folders only: the backend their contents live on. */
  backend: z.enum(BACKENDS).optional(),
});

export const moveRequestSchema = z.object({
  path: pathField,
  name: z.string().min(1),
  newPath: pathField,
  /** On a name clash: fail (409 `file_exists_warning`) or keep both (a numbered name). */
  onConflict: z.enum(['error', 'keep-both']).default('error'),
});
export const renameRequestSchema = z.object({ path: pathField, name: z.string().min(1), newName: z.string().min(1) });
export const trashRequestSchema = z.object({ paths: z.array(pathField).min(1).max(1000) });
export const starRequestSchema = z.object({ path: pathField, starred: z.boolean() });
export const lockRequestSchema = z.object({ path: pathField, lock: z.boolean() });
export const pathQuerySchema = z.object({ path: pathField });

/** A root folder (top level of Storage) with its backend, owner, volume limit and usage in bytes. */
export const rootFolderSchema = z.object({
  _id: z.string(),
  inode: z.string(),
  name: z.string(),
  path: z.string(),
  description: z.string(),
  owner: z.string().nullable(),
  backend: z.enum(BACKENDS),
  volume: z.number().nullable(),
  usage: z.number(),
});
export type RootFolder = z.infer<typeof rootFolderSchema>;

/**
 * What a root folder keeps, in bytes: live files, versions of files, and the trash. The
 * volume limit applies to their sum (the `usage` beside it).
 */
export const usageBreakdownSchema = z.object({ live: z.number(), versions: z.number(), trash: z.number() });
export type UsageBreakdown = z.infer<typeof usageBreakdownSchema>;

/** `GET /api/file/root/usage`: per root folder, and the total of what the user may see. */
export const rootUsageSchema = z.object({
  roots: z.array(z.object({ name: z.string(), path: z.string(), usage: z.number(), volume: z.number().nullable(), breakdown: usageBreakdownSchema })),
  used: z.number(),
  total: z.number().nullable(),
});
export type RootUsage = z.infer<typeof rootUsageSchema>;

/** `GET /api/dashboard/volume`: usage and volume per backend. */
export const dashboardVolumeSchema = z.object({
  usage: z.object({ server: z.number(), cloud: z.number() }),
  volume: z.object({ server: z.number().nullable(), cloud: z.number().nullable() }),
});

/**
 * A client's id for one upload of one file, kept for its resume (optional): when sent, it
 * keys the upload session, so uploads of one name and size at the same time never share
 * chunks. 16–64 of `A–Z a–z 0–9 _ -` (a UUID or 128 random bits in base64url fit).
 */
export const UPLOAD_ID_PATTERN = /^[A-Za-z0-9_-]{16,64}$/;
const uploadIdField = z.string().regex(UPLOAD_ID_PATTERN, 'upload_chunk_invalid').optional();

/**
 * What an upload does when its name is taken in the folder: `fail` (409
 * `file_exists_warning`, the default), `replace` (the file takes the new content and its
 * old content becomes a version), or `keep-both` (the server names the new file
 * `name (1).ext`, the first free number, as copy does). A skipped file is one the client
 * never sends. Checked when the first chunk arrives and again when the last completes it.
 */
export const UPLOAD_CONFLICT_ACTIONS = ['fail', 'replace', 'keep-both'] as const;
export type UploadConflictAction = (typeof UPLOAD_CONFLICT_ACTIONS)[number];

/** Multipart fields of `POST /api/file/upload` (the file part is `file`). */
export const uploadFieldsSchema = z.object({
  fileName: z.string().min(1),
  path: pathField,
  chunkIndex: z.coerce.number().int().min(0),
  totalChunks: z.coerce.number().int().min(1).max(1_000_000),
  isLastChunk: z.enum(['true', 'false']).transform((v) => v === 'true'),
  fileSize: z.coerce.number().int().min(0),
  uploadId: uploadIdField,
  /** On a taken name (see UPLOAD_CONFLICT_ACTIONS); the same on every chunk of one upload. */
  onConflict: z.enum(UPLOAD_CONFLICT_ACTIONS).default('fail'),
});
export const uploadStatusQuerySchema = z.object({
  path: pathField,
  fileName: z.string().min(1),
  fileSize: z.coerce.number().int().min(0),
  uploadId: uploadIdField,
});
/**
 * `POST /api/file/upload/cancel`: the user stopped this upload in the browser. Its server task
 * shows as canceled; what the server holds is kept (a retry goes on from there, until the
 * housekeeping drops an upload idle for a day).
 */
export const uploadCancelRequestSchema = z.object({
  path: pathField,
  fileName: z.string().min(1),
  fileSize: z.number().int().min(0),
  uploadId: uploadIdField,
});
export const uploadStatusSchema = z.object({ received: z.array(z.number().int()), chunkSize: z.literal(CHUNK_SIZE) });
/** Answer to each chunk: the file entry once the last chunk completed it. */
export const uploadChunkResponseSchema = z.object({ complete: z.boolean(), received: z.number().int(), file: fileEntrySchema.optional() });

/**
 * `GET /api/file/preview/ticket?path=`: a ticket for streaming a file into a media element
 * (`GET /api/file/preview/stream?path=&ticket=`), or null where every byte must pass the
 * download count (secure folders): the preview then fetches the file instead.
 */
export const previewTicketSchema = z.object({ ticket: z.string().nullable() });
export const previewStreamQuerySchema = z.object({ path: pathField, ticket: z.string().min(1).max(2048) });

export const permissionListSchema = z.array(z.enum(PERMISSION_TYPES));
