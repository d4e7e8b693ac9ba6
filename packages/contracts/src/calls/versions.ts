import { z } from 'zod';
import { pathField } from './files.js';

/** Names one conflict check may ask about (one drop of files and folders). */
export const UPLOAD_CHECK_MAX_NAMES = 1000;

/**
 * `POST /api/file/upload/check`: which names of one drop already exist in `path`. `names`
 * are relative paths (`a.txt`, `사진/1.jpg`): a name with a `/` is looked up below `path`
 * (its folders need not exist; then it does not exist either).
 */
export const uploadCheckRequestSchema = z.object({
  path: pathField,
  names: z.array(z.string().min(1).max(4096)).min(1).max(UPLOAD_CHECK_MAX_NAMES),
});
export type UploadCheckRequest = z.infer<typeof uploadCheckRequestSchema>;

/**
 * One name of the check: whether something holds it, a file or a folder (null when
 * free), and the name keep-both would give it now (`suggested`, the name itself when free;
 * the server picks again at completion, so it may differ then).
 */
export const uploadCheckItemSchema = z.object({
  name: z.string(),
  exists: z.boolean(),
  kind: z.enum(['file', 'folder']).nullable(),
  suggested: z.string(),
});
export type UploadCheckItem = z.infer<typeof uploadCheckItemSchema>;
/** The answer, in the order of the request's names. */
export const uploadCheckResponseSchema = z.object({ items: z.array(uploadCheckItemSchema) });
export type UploadCheckResponse = z.infer<typeof uploadCheckResponseSchema>;

/**
 * One version of a file: an earlier content kept when the file was replaced (upload with
 * replace, WebDAV PUT, incoming webhook, snapshot restore, version restore), or the
 * current content (`current: true`, `_id` the file's node id). `author` is who wrote that
 * content (null when the account is gone).
 */
export const fileVersionSchema = z.object({
  _id: z.string(),
  size: z.number(),
  /** SHA-256 of the content, hex. */
  hash: z.string(),
  createdAt: z.string(),
  author: z.object({ _id: z.string(), name: z.string() }).nullable(),
  current: z.boolean(),
});
export type FileVersion = z.infer<typeof fileVersionSchema>;

/** `GET /api/file/versions?path=`: the current content first, then the versions, newest first. */
export const fileVersionListSchema = z.object({ items: z.array(fileVersionSchema) });
export type FileVersionList = z.infer<typeof fileVersionListSchema>;

/**
 * `GET /api/file/version/download?path=&id=` (the bytes, as a download, with Range),
 * `POST /api/file/version/restore` and `DELETE /api/file/version` (JSON body `{path, id}`).
 */
export const fileVersionRefSchema = z.object({ path: pathField, id: z.string().min(1).max(64) });
export type FileVersionRef = z.infer<typeof fileVersionRefSchema>;

/** Most versions a policy may keep per file. */
export const VERSIONS_MAX_COUNT = 1000;
/** Longest age a policy may keep versions for, in days. */
export const VERSIONS_MAX_DAYS = 3650;
export const VERSIONS_DEFAULT_COUNT = 10;
export const VERSIONS_DEFAULT_DAYS = 30;

const maxVersionsField = z
  .number({ error: 'version_settings_invalid' })
  .int({ error: 'version_settings_invalid' })
  .min(0, { error: 'version_settings_invalid' })
  .max(VERSIONS_MAX_COUNT, { error: 'version_settings_invalid' });
const maxAgeDaysField = z
  .number({ error: 'version_settings_invalid' })
  .int({ error: 'version_settings_invalid' })
  .min(1, { error: 'version_settings_invalid' })
  .max(VERSIONS_MAX_DAYS, { error: 'version_settings_invalid' });

/**
 * `GET/PUT /api/setting/versions` (administrators): the retention of versions. A version
 * is pruned when more than `maxVersions` newer ones of its file exist, or when it is older
 * than `maxAgeDays`. `maxVersions` 0 keeps none; null on either turns that rule off.
 */
export const versionSettingsSchema = z.object({
  maxVersions: maxVersionsField.nullable(),
  maxAgeDays: maxAgeDaysField.nullable(),
});
export type VersionSettings = z.infer<typeof versionSettingsSchema>;

/**
 * A root folder's own retention (`GET /api/file/root/versions?path=`, `PUT` with `path`):
 * each field null follows the global setting. `effective` is what applies.
 */
export const rootVersionsRequestSchema = z.object({
  path: pathField,
  maxVersions: maxVersionsField.nullable(),
  maxAgeDays: maxAgeDaysField.nullable(),
});
export type RootVersionsRequest = z.infer<typeof rootVersionsRequestSchema>;
export const rootVersionsSchema = z.object({
  path: z.string(),
  maxVersions: z.number().int().nullable(),
  maxAgeDays: z.number().int().nullable(),
  effective: versionSettingsSchema,
});
export type RootVersions = z.infer<typeof rootVersionsSchema>;
