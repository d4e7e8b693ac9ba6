import { z } from 'zod';
import { ACCESS_LEVELS, PERMISSION_TYPES, type AccessLevel, type PermissionType } from '../enums.js';

/**
 * A list of permission names as clients send it: unknown names are dropped (spec), duplicates
 * removed, the order made canonical.
 */
export const permissionNamesField = z
  .array(z.string().max(32))
  .max(64)
  .transform((names) => PERMISSION_TYPES.filter((p) => names.includes(p)));

/** Permissions each access level grants when a level is chosen instead of single permissions. */
export const ACCESS_LEVEL_PERMISSIONS: Record<AccessLevel, readonly PermissionType[]> = {
  0: [],
  1: ['READ', 'PREVIEW', 'DOWNLOAD'],
  2: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'TRASH'],
  3: PERMISSION_TYPES,
};

/**
 * The access level a list of permissions amounts to, for display: 0 without READ; 3 with all
 * thirteen; 2 when it may also write (create, update, move, copy or trash); else 1.
 */
export function accessLevelOf(permissions: readonly string[]): AccessLevel {
  if (!permissions.includes('READ')) return 0;
  if (PERMISSION_TYPES.every((p) => permissions.includes(p))) return 3;
  if ((['CREATE', 'UPDATE', 'MOVE', 'COPY', 'TRASH'] as const).some((p) => permissions.includes(p))) return 2;
  return 1;
}

/** The spec's permission matrix columns; `hidden` ones are not offered for the default user row. */
export const PERMISSION_COLUMNS: readonly { id: string; permissions: readonly PermissionType[]; hidden?: boolean }[] = [
  { id: 'all', permissions: ['READ', 'PREVIEW', 'DOWNLOAD', 'CREATE', 'UPDATE', 'MOVE', 'COPY', 'SHARE', 'LOCK', 'UNLOCK', 'TRASH'] },
  { id: 'read', permissions: ['READ'] },
  { id: 'preview', permissions: ['PREVIEW'] },
  { id: 'download', permissions: ['DOWNLOAD'] },
  { id: 'create', permissions: ['CREATE'] },
  { id: 'update', permissions: ['UPDATE'] },
  { id: 'move_copy', permissions: ['MOVE', 'COPY'] },
  { id: 'share', permissions: ['SHARE'] },
  { id: 'trash', permissions: ['TRASH'] },
  { id: 'lock_unlock', permissions: ['LOCK', 'UNLOCK'] },
  { id: 'delete', permissions: ['DELETE'], hidden: true },
  { id: 'setting', permissions: ['SETTING'], hidden: true },
];

/** Permissions of the hidden columns (DELETE, SETTING): ignored for the default user row. */
export const USER_ROW_HIDDEN_PERMISSIONS: readonly PermissionType[] = PERMISSION_COLUMNS.filter((column) => column.hidden).flatMap(
  (column) => column.permissions,
);

/** A list for the default user row: known names only, without the hidden columns' permissions. */
export function userRowPermissions(names: readonly string[]): PermissionType[] {
  return PERMISSION_TYPES.filter((p) => names.includes(p) && !USER_ROW_HIDDEN_PERMISSIONS.includes(p));
}

const accessField = z.union(ACCESS_LEVELS.map((level) => z.literal(level)) as [z.ZodLiteral<0>, z.ZodLiteral<1>, z.ZodLiteral<2>, z.ZodLiteral<3>]);

/**
 * One entry as sent: the user or group id, its permissions, optionally an access level (when only
 * a level is given, the level's permissions are used). `remove` deletes the entry so the
 * resource falls back to what it inherits. An entry with no permissions denies everything.
 */
export const resourceEntryInputSchema = z.object({
  entity: z.string().min(1).max(64),
  permissions: permissionNamesField.optional(),
  access: accessField.optional(),
  remove: z.boolean().optional(),
});
export type ResourceEntryInput = z.input<typeof resourceEntryInputSchema>;

const entriesField = z.array(resourceEntryInputSchema).max(1000);

/** An entry as answered, with the entity described for display. */
export const resourceUserEntrySchema = z.object({
  entity: z.object({ _id: z.string(), name: z.string(), email: z.string(), role: z.string(), profileImage: z.string().nullable() }),
  permissions: z.array(z.enum(PERMISSION_TYPES)),
  access: z.number().int().min(0).max(3),
});
export const resourceGroupEntrySchema = z.object({
  entity: z.object({ _id: z.string(), name: z.string(), description: z.string() }),
  permissions: z.array(z.enum(PERMISSION_TYPES)),
  access: z.number().int().min(0).max(3),
});

/** The spec's Resource: a folder or file with permission entries of its own. */
export const resourceSchema = z.object({
  _id: z.string(),
  inode: z.string(),
  name: z.string(),
  path: z.string(),
  folder: z.boolean(),
  owner: z.object({ _id: z.string(), name: z.string(), email: z.string(), profileImage: z.string().nullable() }).nullable(),
  createdAt: z.string(),
  users: z.array(resourceUserEntrySchema),
  groups: z.array(resourceGroupEntrySchema),
  /** Root folders: the volume limit in bytes (null: unlimited); null for others. */
  volume: z.number().nullable(),
});
export type Resource = z.infer<typeof resourceSchema>;
export const resourceListSchema = z.array(resourceSchema);

export const resourceQuerySchema = z.object({
  inode: z.string().max(64).optional(),
  _id: z.string().max(64).optional(),
  path: z.string().max(4096).optional(),
});

/** Create: the node by `inode` (its id) or by `path`; `name` and `folder` are informative (the node decides). */
export const createResourceRequestSchema = z.object({
  inode: z.string().max(64).optional(),
  path: z.string().min(1).max(4096),
  name: z.string().max(255).optional(),
  folder: z.boolean().optional(),
  users: entriesField.optional(),
  groups: entriesField.optional(),
});
export type CreateResourceRequest = z.input<typeof createResourceRequestSchema>;

/** Update by `_id`, or by `path` (created when the node has no resource yet: the spec's save rule). */
export const updateResourceRequestSchema = z
  .object({
    _id: z.string().max(64).optional(),
    path: z.string().min(1).max(4096).optional(),
    inode: z.string().max(64).optional(),
    name: z.string().max(255).optional(),
    folder: z.boolean().optional(),
    users: entriesField.optional(),
    groups: entriesField.optional(),
    volume: z.number().int().min(0).nullable().optional(),
  })
  .refine((body) => body._id !== undefined || body.path !== undefined, { message: 'invalid_request_message' });
export type UpdateResourceRequest = z.input<typeof updateResourceRequestSchema>;

export const resourceIdParamsSchema = z.object({ id: z.string().min(1).max(64) });

/** The spec's Setting (first item of GET /api/setting). */
export const settingSchema = z.object({
  _id: z.string(),
  permission: z.object({ user: z.array(z.enum(PERMISSION_TYPES)), admin: z.array(z.enum(PERMISSION_TYPES)) }),
  server: z.object({ path: z.string() }),
  cloud: z.object({ bucket: z.string().nullable() }),
});
export type Setting = z.infer<typeof settingSchema>;
export const settingListSchema = z.array(settingSchema);

/** PUT /api/setting: the default permissions (only the rows that changed are sent). */
export const updateSettingRequestSchema = z.object({
  _id: z.string().max(64).optional(),
  /** `user` drops DELETE and SETTING like unknown names (the spec ignores those columns for the user row). */
  permission: z.object({ user: permissionNamesField.transform(userRowPermissions).optional(), admin: permissionNamesField.optional() }),
});
export type UpdateSettingRequest = z.input<typeof updateSettingRequestSchema>;

/** A folder's permission summary for a user or group (edit dialogs' permission tabs). */
export const folderAccessSchema = z.object({
  inode: z.string(),
  path: z.string(),
  name: z.string(),
  permissions: z.array(z.enum(PERMISSION_TYPES)),
  access: z.number().int().min(0).max(3),
  /** false when the entry is inherited from the defaults (no entry on this folder). */
  explicit: z.boolean(),
});
export type FolderAccess = z.infer<typeof folderAccessSchema>;
